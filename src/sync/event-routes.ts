// GET /app/users/{id}/events/ (docs/offline-and-live.md): the live stream of an app user's changes.
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { IdParams } from '../app-data/kernel/field-schemas.ts';
import { onAppUser } from '../app-data/kernel/route-helpers.ts';
import { errors } from '../http/error-schemas.ts';
import type { App } from '../http/types.ts';
import { requireAppUser } from '../app-data/kernel/access.ts';
import { checkedSince, currentChangeId } from './change-service.ts';
import { sealCursor, viewOf } from './cursor.ts';
import { event, EventHub } from './event-hub.ts';

/** How long a client waits before reconnecting after the stream ends (the EventSource `retry` field). */
const RETRY_MS = 2_000;

export function registerEventRoutes(app: App, ctx: AppContext): EventHub {
  const hub = new EventHub(ctx, app.log);
  // Before the server stops taking connections: open streams would hold it up.
  app.addHook('preClose', async () => hub.close());

  app.get(
    '/app/users/:id/events/',
    {
      schema: {
        tags: ['sync'],
        summary: "A live stream of an app user's changes (Server-Sent Events; owner and accessors)",
        description:
          'One event per change: `id:` its cursor, `data:` {"type", "id", "op"}. Reconnect with `Last-Event-ID` to resume with no gap and no repeat, ' +
          'on any instance; a comment line comes at least every 30 s. The stream ends when the token is revoked or access changes or ends; ' +
          'at most EVENT_STREAMS_PER_ACCOUNT streams per account and EVENT_STREAMS_PER_IP per client address at once (429).',
        operationId: 'streamEvents',
        params: IdParams,
        headers: Type.Object({
          'last-event-id': Type.Optional(Type.String({ description: 'The id of the last event the client has' })),
        }),
        response: {
          200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: Type.String() } } },
          ...errors({
            auth: true,
            notFound: true,
            rateLimited: true,
            gone: 'Last-Event-ID is past the retention, was taken with other access, or is not recognised',
          }),
        },
      },
    },
    (request, reply) =>
      onAppUser(request, 'read', async (access, appUserId) => {
        const caller = callerOf(request);
        requireAppUser(access, appUserId);
        const lastEventId = request.headers['last-event-id'];
        const { changeId: after, lost } =
          lastEventId === undefined
            ? { changeId: await currentChangeId(ctx, access, appUserId), lost: [] }
            : await checkedSince(ctx, access, appUserId, lastEventId);
        hub.admit(caller.accountId, request.ip);
        reply.hijack();
        reply.raw.writeHead(200, {
          ...(reply.getHeaders() as Record<string, string>),
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          // Proxies that buffer answers (nginx) must pass each event on at once.
          'x-accel-buffering': 'no',
          // Not reused once the stream ends: a server shutting down need not wait for it to idle.
          connection: 'close',
        });
        reply.raw.write(`retry: ${RETRY_MS}\n: connected\n\n`);
        // A share narrowed since Last-Event-ID: the profiles it lost go first, under the cursor it resumes from.
        if (lost.length > 0) {
          const cursor = sealCursor(ctx.secrets.cursors, { appUserId, view: viewOf(access), changeId: after, profiles: access.profiles });
          reply.raw.write(lost.map((change) => event(cursor, change)).join(''));
        }
        const grant = access.grant && {
          accessorId: access.grant.accessorId,
          canWrite: access.grant.canWrite,
          privateAccess: access.grant.privateAccess,
          profiles: access.grant.profiles,
        };
        hub.add({
          holder: { tokenId: caller.tokenId, callerAccountId: caller.accountId, appUserId, grant },
          access,
          view: viewOf(access),
          after,
          ip: request.ip,
          raw: reply.raw,
        });
      }),
  );
  return hub;
}
