// /app/users/{id}/accessors/, /app/accessors/{id}/, /app/accessors/pending/ and
// /app/accessors/{id}/accept/ (docs/sharing.md, "Granting access").
import { ifMatchPrecondition } from '../app-data/kernel/conditional-write.ts';
import { Type } from 'typebox';
import { IdParams } from '../app-data/kernel/field-schemas.ts';
import { createdOnce } from '../app-data/kernel/idempotent-create.ts';
import { callerOf } from '../auth/token-auth.ts';
import type { AppContext } from '../context.ts';
import { errors } from '../http/error-schemas.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { AccessorCreateBody, AccessorListSchema, AccessorPatchBody, AccessorSchema } from './accessor-schemas.ts';
import {
  acceptAccessor,
  changeAccessor,
  createAccessor,
  getAccessor,
  listPending,
  listSharedWithMe,
  listUserAccessors,
  removeAccessor,
} from './accessor-service.ts';

const tags = ['sharing'];

const OWNER_ONLY = 'The caller is an accessor of this app user: only its owner manages who has access';

export function registerAccessorRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/app/users/:id/accessors/',
    {
      schema: {
        tags,
        summary: "The people an app user's data is shared with, or who are invited (owner only)",
        params: IdParams,
        operationId: 'listAccessors',
        response: { 200: AccessorListSchema, ...errors({ auth: true, notFound: true, forbidden: OWNER_ONLY }) },
      },
    },
    (request) => listUserAccessors(ctx, callerOf(request), parseId(request.params.id)),
  );

  app.post(
    '/app/users/:id/accessors/',
    {
      schema: {
        tags,
        summary: "Invite an address to an app user's data (owner only): an invitation e-mail goes to it",
        description:
          'The address may belong to an account, to none yet, or to one later. Not one of the owner’s own addresses, nor one already invited to this app user (400 under email); at most ACCESSOR_QUOTA (default 50) per app user (400). ' +
          'An address is e-mailed at most RATE_LIMIT_INVITATION_EMAILS_PER_ADDRESS invitations (default 3 a day), whoever sends them: past it the invitation is made but not mailed. One account sends at most RATE_LIMIT_INVITATION_EMAILS_PER_ACCOUNT (default 50 a day): past it 429.',
        params: IdParams,
        body: AccessorCreateBody,
        operationId: 'createAccessor',
        response: {
          201: AccessorSchema,
          ...errors({ auth: true, notFound: true, body: true, forbidden: OWNER_ONLY, rateLimited: true, idempotent: true }),
        },
      },
    },
    async (request, reply) =>
      createdOnce(ctx, request, reply, (terms) => createAccessor(ctx, callerOf(request), parseId(request.params.id), request.body, terms)),
  );

  app.get(
    '/app/accessors/',
    {
      schema: {
        tags,
        summary: 'What others share with the caller: the accessors the caller accepted, by id (DELETE one to leave)',
        operationId: 'listSharedWithMe',
        response: { 200: AccessorListSchema, ...errors({ auth: true }) },
      },
    },
    (request) => listSharedWithMe(ctx, callerOf(request)),
  );

  app.get(
    '/app/accessors/pending/',
    {
      schema: {
        tags,
        summary: "Invitations waiting for the caller: not yet accepted, addressed to one of the caller's verified addresses",
        operationId: 'listPendingAccessors',
        response: { 200: AccessorListSchema, ...errors({ auth: true }) },
      },
    },
    (request) => listPending(ctx, callerOf(request)),
  );

  app.get(
    '/app/accessors/:id/',
    {
      schema: {
        tags,
        summary: 'An accessor, to its owner and to the person invited',
        params: IdParams,
        operationId: 'getAccessor',
        response: { 200: AccessorSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => getAccessor(ctx, callerOf(request), parseId(request.params.id)),
  );

  app.patch(
    '/app/accessors/:id/',
    {
      schema: {
        tags,
        summary: 'Change what an accessor may do, or its end date (owner only); its address cannot change',
        description: 'A later expires_at re-grants an expired accessor without a new invitation. A past expires_at: 400.',
        params: IdParams,
        body: AccessorPatchBody,
        operationId: 'updateAccessor',
        response: {
          200: AccessorSchema,
          ...errors({
            auth: true,
            notFound: true,
            body: true,
            forbidden: 'The caller is the person invited: only the owner changes it',
            preconditionFailed: true,
          }),
        },
      },
    },
    (request, reply) =>
      changeAccessor(ctx, callerOf(request), parseId(request.params.id), request.body, ifMatchPrecondition(request, reply, AccessorSchema)),
  );

  app.delete(
    '/app/accessors/:id/',
    {
      schema: {
        tags,
        summary: 'By the owner: revoke the access, or the invitation. By the person invited: decline the invitation, or leave',
        params: IdParams,
        operationId: 'deleteAccessor',
        response: { 204: Type.Null(), ...errors({ auth: true, notFound: true, preconditionFailed: true }) },
      },
    },
    async (request, reply) => {
      await removeAccessor(ctx, callerOf(request), parseId(request.params.id), ifMatchPrecondition(request, reply, AccessorSchema));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/app/accessors/:id/accept/',
    {
      schema: {
        tags,
        summary: "Accept an invitation addressed to one of the caller's verified addresses: the access is bound to the caller's account",
        description:
          'Accepting it again answers the same. The owner gets a notice e-mail. An invitation not addressed to a verified address of the caller: 404.',
        params: IdParams,
        operationId: 'acceptAccessor',
        response: {
          200: AccessorSchema,
          ...errors({
            auth: true,
            notFound: true,
            forbidden: 'The invitation is to the caller’s own data',
            conflict: 'The caller already has access to this app user through another invitation it accepted',
          }),
        },
      },
    },
    (request) => acceptAccessor(ctx, callerOf(request), parseId(request.params.id)),
  );
}
