// GET /app/users/{id}/activity/: what others did with an app user's data, and its shares' and
// links' life, for its owner only (docs/activity.md). Accessors get 403, anyone else 404.
import { Type } from 'typebox';
import { activityPage, ActivityPageSchema, ACTIVITY_PAGE, beforeId, listActivity } from '../activity/activity-events.ts';
import { IdParams } from '../app-data/kernel/field-schemas.ts';
import { onAppUser } from '../app-data/kernel/route-helpers.ts';
import type { AppContext } from '../context.ts';
import { errors } from '../http/error-schemas.ts';
import type { App } from '../http/types.ts';

const ActivityQuery = Type.Object({
  before: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: "An event's id: the page holds the events before it (older)" }),
  ),
});

export function registerActivityRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/app/users/:id/activity/',
    {
      schema: {
        tags: ['sharing'],
        summary: "What others did with an app user's data, newest first, 100 to a page (owner only)",
        description:
          'Accessors’ reads (at most one event per accessor and hour), creates, updates and deletes; emergency link views; ' +
          'accessors and emergency links over their life; exports; operators’ actions. The owner’s own writes are not here. ' +
          'Kept ACTIVITY_RETENTION (default 1 year).',
        params: IdParams,
        querystring: ActivityQuery,
        operationId: 'listAppUserActivity',
        response: {
          200: ActivityPageSchema,
          ...errors({
            auth: true,
            notFound: true,
            body: true,
            forbidden: 'The caller is an accessor of this app user: only its owner reads its activity',
          }),
        },
      },
    },
    (request) =>
      onAppUser(request, 'owner', async (access, appUserId) => {
        const rows = await listActivity(
          ctx.db.kysely,
          { accountId: access.accountId, appUserId, before: beforeId(request.query.before) },
          ACTIVITY_PAGE,
        );
        return activityPage(rows, (before) => `${ctx.config.publicUrl}/app/users/${appUserId}/activity/?before=${before}`);
      }),
  );
}
