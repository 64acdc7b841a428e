import { sql } from 'kysely';
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { serviceUnavailable } from './errors.ts';
import type { App } from './types.ts';

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  app.get('/health', {
    config: { auth: 'none' },
    schema: {
      summary: 'Service health: 200 when the database answers, 503 otherwise',
      tags: ['service'],
      security: [],
      response: { 200: Type.Object({ status: Type.Literal('ok') }) },
    },
  }, async () => {
    try {
      await sql`select 1`.execute(ctx.db.kysely);
    } catch (error) {
      ctx.log.error({ err: error }, 'health check: database unreachable');
      throw serviceUnavailable('The database is unreachable.');
    }
    return { status: 'ok' as const };
  });
}
