import type { AppContext } from '../context.ts';
import type { App } from '../http/types.ts';
import { registerChangeRoutes } from './change-routes.ts';
import { registerEventRoutes } from './event-routes.ts';

/** Offline devices and live updates (docs/offline-and-live.md): changes since a cursor, and the live stream. */
export function registerSyncRoutes(app: App, ctx: AppContext): void {
  registerChangeRoutes(app, ctx);
  registerEventRoutes(app, ctx);
}
