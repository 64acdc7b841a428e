// GET /app/users/{id}/changes/ (docs/offline-and-live.md): what changed since a cursor.
import type { AppContext } from '../context.ts';
import { IdParams } from '../app-data/kernel/field-schemas.ts';
import { onAppUser } from '../app-data/kernel/route-helpers.ts';
import { errors } from '../http/error-schemas.ts';
import type { App } from '../http/types.ts';
import { ChangesPageSchema, ChangesQuery } from './change-schemas.ts';
import { changesSince } from './change-service.ts';

export function registerChangeRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/app/users/:id/changes/',
    {
      schema: {
        tags: ['sync'],
        summary: "Changes to an app user's data since a cursor, in commit order (owner and accessors)",
        description:
          'Apply them to a full read taken at the cursor to get a full read taken now. A delete removes what the object holds with it. ' +
          'The cursor is opaque, sealed to the app user and the access it was read with. ' +
          'A cursor older than the retention (CHANGES_RETENTION), taken with other access or for another app user, altered, or not recognised is 410: read everything again.',
        operationId: 'listChanges',
        params: IdParams,
        querystring: ChangesQuery,
        response: {
          200: ChangesPageSchema,
          ...errors({
            auth: true,
            notFound: true,
            invalid: true,
            gone: 'The cursor is past the retention, was taken with other access or for another app user, or is not recognised',
          }),
        },
      },
    },
    (request) => onAppUser(request, 'read', (access, appUserId) => changesSince(ctx, access, appUserId, request.query.since)),
  );
}
