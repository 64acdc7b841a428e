// /auth/sessions/, /auth/sessions/{id}/, /auth/logout/ and /auth/logout-all/ (docs/accounts.md).
import { Type } from 'typebox';
import { callerOf } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import { parseId } from '../../http/ids.ts';
import type { App } from '../../http/types.ts';
import { SessionIdParams, SessionListSchema } from './session-schemas.ts';
import { endCurrentSession, listSessions, revokeAllSessions, revokeSession } from './session-service.ts';
import { errors } from '../../http/error-schemas.ts';

const tags = ['sessions'];

export function registerSessionRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/auth/logout/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke the token used for this request',
        operationId: 'logout',
        response: { 204: Type.Null(), ...errors({ auth: true }) },
      },
    },
    async (request, reply) => {
      await endCurrentSession(ctx, callerOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/logout-all/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke every token of the account (log out everywhere) and end logins waiting for their second step',
        operationId: 'logoutAll',
        response: { 204: Type.Null(), ...errors({ auth: true }) },
      },
    },
    async (request, reply) => {
      await revokeAllSessions(ctx, callerOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/auth/sessions/',
    {
      schema: {
        tags,
        summary: "The caller's sessions (one per login), by id; current marks this request's",
        operationId: 'listSessions',
        response: { 200: SessionListSchema, ...errors({ auth: true }) },
      },
    },
    (request) => listSessions(ctx, callerOf(request)),
  );

  app.delete(
    '/auth/sessions/:id/',
    {
      schema: {
        tags,
        summary: 'End a session: its token answers 401 from the next request on (the current one may be ended too)',
        params: SessionIdParams,
        operationId: 'deleteSession',
        response: { 204: Type.Null(), ...errors({ auth: true, notFound: true }) },
      },
    },
    async (request, reply) => {
      await revokeSession(ctx, callerOf(request), parseId(request.params.id));
      return reply.code(204).send(null);
    },
  );
}
