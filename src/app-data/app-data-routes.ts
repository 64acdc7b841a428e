// The personal-data capability (docs/app-data.md), the media gallery included (its files are served by src/media/).
import type { AppContext } from '../context.ts';
import type { App } from '../http/types.ts';
import { registerAppUserRoutes } from './app-user-routes.ts';
import { registerEmergencyContactRoutes } from './emergency-contact-routes.ts';
import { registerEmergencyItemRoutes } from './emergency-item-routes.ts';
import { registerGalleryRoutes } from './gallery-routes.ts';
import { registerItemRoutes } from './item-routes.ts';
import { registerListEntryRoutes } from './list-entry-routes.ts';
import { registerProfileRoutes } from './profile-routes.ts';
import { RenderingCache } from './views/rendering-cache.ts';
import { registerTopicRoutes } from './topic-routes.ts';

export function registerAppDataRoutes(app: App, ctx: AppContext): void {
  const cache = new RenderingCache(ctx.config.renderCacheBytes, ctx.config.mediaUrlTtlMs);
  ctx.cacheCounts.set('rendering', cache.counts);
  registerAppUserRoutes(app, ctx);
  registerProfileRoutes(app, ctx, cache);
  registerTopicRoutes(app, ctx);
  registerItemRoutes(app, ctx, cache);
  registerListEntryRoutes(app, ctx);
  registerEmergencyItemRoutes(app, ctx);
  registerEmergencyContactRoutes(app, ctx);
  registerGalleryRoutes(app, ctx);
}
