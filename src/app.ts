// Builds the Fastify application: conventions, documentation, authentication and the
// routes of each capability. main.ts (and the tests) start it.
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import type { AppContext } from './context.ts';
import { registerTokenAuth } from './auth/token-auth.ts';
import { registerHealthRoutes } from './http/health-routes.ts';
import { registerHttpConventions } from './http/server-setup.ts';
import type { App } from './http/types.ts';

export const JSON_BODY_LIMIT = 1024 * 1024;

export async function buildApp(ctx: AppContext): Promise<App> {
  const app: App = Fastify({
    loggerInstance: ctx.log,
    trustProxy: ctx.config.trustProxy as boolean | string,
    bodyLimit: JSON_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    // Bodies are validated as sent: "3" is not an integer and true is not a string.
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false } },
    connectionTimeout: 60_000,
    requestTimeout: 60_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    exposeHeadRoutes: true,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.headersTimeout = 20_000;

  await registerHttpConventions(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Profile Service', version: '0.1.0', description: 'Accounts and organised personal information.' },
      servers: [{ url: ctx.config.publicUrl }],
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <token>' } },
      },
      security: [{ token: [] }],
    },
  });
  // The documentation pages are public.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...route.config, auth: 'none' };
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { validatorUrl: null } as never, logLevel: 'warn' });
  // Limits are set per route (config.rateLimit); nothing is limited globally.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      detail: `Too many requests; try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });
  registerTokenAuth(app, ctx);

  registerHealthRoutes(app, ctx);
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, () => app.swagger());
  return app;
}
