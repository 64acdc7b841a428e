// Builds the Fastify application: conventions, documentation, authentication and the
// routes of each capability. main.ts (and the tests) start it.
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import packageJson from '../package.json' with { type: 'json' };
import { registerAccountRoutes } from './accounts/account-routes.ts';
import { registerAdminRoutes } from './admin/admin-routes.ts';
import { registerWebhookRoutes } from './admin/webhook-routes.ts';
import { registerGoneAccountAnswers } from './accounts/core/gone-account.ts';
import { registerEntityTags } from './http/entity-tags.ts';
import { closeUnusedConnectionsOnClose } from './http/unused-connections.ts';
import { registerAppDataRoutes } from './app-data/app-data-routes.ts';
import { registerAccessorRoutes } from './sharing/accessor-routes.ts';
import { registerActivityRoutes } from './sharing/activity-routes.ts';
import { registerEmergencyRoutes } from './emergency/emergency-routes.ts';
import { registerSyncRoutes } from './sync/sync-routes.ts';
import { rateLimitKey, rateLimitStore } from './auth/ip-rate-limits.ts';
import { registerTokenAuth } from './auth/token-auth.ts';
import type { AppContext } from './context.ts';
import { rateLimitedFor } from './errors.ts';
import { registerCors } from './http/cors.ts';
import { DOCS_THEME, improveDocsIndex } from './http/docs-page.ts';
import { registerErrorSchemas } from './http/error-schemas.ts';
import { registerHealthRoutes } from './http/health-routes.ts';
import { API_DESCRIPTION, API_TAGS, buildLocalReference, checkOperationId, transformDocument } from './http/openapi-document.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { buildResponseSerializers } from './http/response-serializers.ts';
import { registerHttpConventions, ROUTER_OPTIONS } from './http/server-setup.ts';
import { registerWebClient } from './http/web-client.ts';
import type { App } from './http/types.ts';
import { registerMediaFileRoutes } from './media/media-file-routes.ts';
import { devInboxEnabled } from './mail/dev-inbox.ts';
import { registerDevInboxRoutes } from './mail/dev-inbox-routes.ts';
import { registerMessagingRoutes } from './messaging/messaging-routes.ts';
import { frameworkErrorAnswer, registerRequestIdHeader, requestId } from './observability/request-id.ts';
import { OneLineRequestLog, requestLogSerializers } from './observability/request-log.ts';
import { registerRequestMetrics, type RequestMetrics } from './observability/request-metrics.ts';

export const JSON_BODY_LIMIT = 1024 * 1024;

/** `requestMetrics`: where to count requests (METRICS_PORT set); undefined, nothing is counted. */
export async function buildApp(ctx: AppContext, requestMetrics?: RequestMetrics): Promise<App> {
  const app: App = Fastify({
    // One request serializer for every route, 404 and 405 included: no secret of a URL is logged.
    loggerInstance: ctx.log.child({}, { serializers: requestLogSerializers }),
    ...(ctx.config.logFormat === 'pretty' ? { logController: new OneLineRequestLog() } : {}),
    trustProxy: ctx.config.trustProxy as boolean | string,
    bodyLimit: JSON_BODY_LIMIT,
    routerOptions: ROUTER_OPTIONS,
    // Bodies are validated as sent: "3" is not an integer and true is not a string. x-examples:
    // named request examples for the document only (openapi-document.ts), no validation.
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false, keywords: ['x-examples'] } },
    connectionTimeout: 60_000,
    requestTimeout: 60_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    exposeHeadRoutes: true,
    // X-Request-Id: a sane incoming one, or a new one; in every log line of the request as reqId.
    genReqId: requestId,
    frameworkErrors: frameworkErrorAnswer(ctx.config),
    schemaController: { compilersFactory: { buildSerializer: buildResponseSerializers() } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.headersTimeout = 20_000;
  closeUnusedConnectionsOnClose(app);

  // First: the id is on every answer (the overload guard's too), and every route is counted.
  registerRequestIdHeader(app);
  if (requestMetrics) registerRequestMetrics(app, requestMetrics);
  await registerHttpConventions(app, ctx.config.overloadEventLoopDelayMs, ctx.config);
  registerErrorSchemas(app);
  app.addHook('onRoute', checkOperationId);
  await app.register(swagger, {
    refResolver: { buildLocalReference },
    transformObject: transformDocument as never,
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Profile Service', version: packageJson.version, description: API_DESCRIPTION },
      servers: [{ url: ctx.config.publicUrl }],
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <token>' } },
      },
      security: [{ token: [] }],
      tags: API_TAGS,
    },
  });
  // The documentation pages are public, and so is a browser's preflight (OPTIONS, no token).
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs') || route.method === 'OPTIONS') route.config = { ...route.config, auth: 'none' };
  });
  await registerCors(app, ctx.config.corsOrigins);
  registerSecurityHeaders(app, ctx.config.publicUrl);
  registerEntityTags(app);
  // The documentation pages, in a scope of their own with helmet's headers and the strict
  // content security policy Swagger UI's own files allow.
  await app.register(async (docs) => {
    await docs.register(helmet, {
      contentSecurityPolicy: false,
      frameguard: { action: 'deny' },
      hsts: ctx.config.publicUrl.startsWith('https:'),
    });
    improveDocsIndex(docs);
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      // Over plain HTTP (a local run), "upgrade-insecure-requests" would send the page's own files to https.
      transformStaticCSP: (csp) => (ctx.config.publicUrl.startsWith('https:') ? csp : csp.replace(/\s*upgrade-insecure-requests;?/, '')),
      // BaseLayout: no top bar, so no framework logo and no box to explore another document.
      // No deep links: their anchors sit inside each operation's button, a control within a control.
      uiConfig: { validatorUrl: null, layout: 'BaseLayout', deepLinking: false } as never,
      theme: DOCS_THEME,
      logLevel: 'warn',
    });
  });
  // Limits are set per route (config.rateLimit); nothing is limited globally.
  await app.register(rateLimit, {
    global: false,
    store: rateLimitStore(ctx.counters, ctx.clock),
    keyGenerator: rateLimitKey,
    // Thrown by the plugin; the error handler sends it as {"detail"} with Retry-After.
    errorResponseBuilder: (_request, context) => rateLimitedFor(context.ttl, 'errors.tooManyRequestsFor'),
  });
  registerTokenAuth(app, ctx);
  registerGoneAccountAnswers(app, ctx);

  registerHealthRoutes(app, ctx);
  registerAppDataRoutes(app, ctx);
  registerAccessorRoutes(app, ctx);
  registerActivityRoutes(app, ctx);
  registerEmergencyRoutes(app, ctx);
  registerSyncRoutes(app, ctx);
  registerMediaFileRoutes(app, ctx);
  registerAccountRoutes(app, ctx);
  registerMessagingRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  const devInbox = devInboxEnabled(ctx.config);
  if (devInbox) registerDevInboxRoutes(app, ctx.config);
  // The pages for people: at / and paths no API route uses (docs/web-client.md).
  await registerWebClient(app, ctx.config.webClientDir, ctx.config.publicUrl, devInbox, ctx.config);
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, () => app.swagger());
  return app;
}
