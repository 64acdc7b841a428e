import { sql } from 'kysely';
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, isDatabaseUnavailable } from '../db/unavailable.ts';
import { unavailable } from '../errors.ts';
import type { App } from './types.ts';
import { errors } from './error-schemas.ts';

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/health',
    {
      config: { auth: 'none' },
      schema: {
        summary: 'Service health: 200 when the database answers, 503 otherwise (within the database timeouts)',
        description: 'Served at `/health/` as well, as every path is with or without its trailing slash.',
        tags: ['service'],
        security: [],
        operationId: 'getHealth',
        response: { 200: Type.Object({ status: Type.Literal('ok') }), ...errors() },
      },
    },
    async (request) => {
      try {
        await sql`select 1`.execute(ctx.db.kysely);
      } catch (error) {
        // Any failure is "not healthy"; one that is not the database being away deserves a closer look.
        if (isDatabaseUnavailable(error)) request.log.warn({ err: error }, 'health check: database unavailable');
        else request.log.error({ err: error }, 'health check: database query failed');
        throw unavailable(DATABASE_UNAVAILABLE, DATABASE_RETRY_AFTER_SECONDS);
      }
      return { status: 'ok' as const };
    },
  );
}
