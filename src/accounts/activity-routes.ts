// GET /account/activity/: the account's security log (docs/activity.md), to the account itself.
import { Type } from 'typebox';
import { activityPage, ActivityPageSchema, ACTIVITY_PAGE, beforeId, listActivity } from '../activity/activity-events.ts';
import { callerOf } from '../auth/token-auth.ts';
import type { AppContext } from '../context.ts';
import { errors } from '../http/error-schemas.ts';
import type { App } from '../http/types.ts';

const SecurityQuery = Type.Object({
  before: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: "An event's id: the page holds the events before it (older)" }),
  ),
});

export function registerAccountActivityRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/account/activity/',
    {
      schema: {
        tags: ['account'],
        summary: "The account's security log, newest first, 100 to a page",
        description:
          'Sign-ins (with their method, and the session’s IP address and User-Agent under object), lock-outs, sessions ended, ' +
          'password, second factor, recovery codes, passkeys, identities and addresses changed, operators’ actions. ' +
          'Kept ACTIVITY_RETENTION (default 1 year).',
        querystring: SecurityQuery,
        operationId: 'listAccountActivity',
        response: { 200: ActivityPageSchema, ...errors({ auth: true, body: true }) },
      },
    },
    async (request) => {
      const { accountId } = callerOf(request);
      const rows = await listActivity(ctx.db.kysely, { accountId, appUserId: null, before: beforeId(request.query.before) }, ACTIVITY_PAGE);
      return activityPage(rows, (before) => `${ctx.config.publicUrl}/account/activity/?before=${before}`);
    },
  );
}
