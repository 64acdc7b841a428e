// Emergency access links (docs/emergency-links.md): the owner's routes and the public ones.
import type { AppContext } from '../context.ts';
import type { App } from '../http/types.ts';
import { registerEmergencyLinkRoutes } from './emergency-link-routes.ts';
import { registerPublicEmergencyRoutes } from './public-emergency-routes.ts';

export function registerEmergencyRoutes(app: App, ctx: AppContext): void {
  registerEmergencyLinkRoutes(app, ctx);
  registerPublicEmergencyRoutes(app, ctx);
}
