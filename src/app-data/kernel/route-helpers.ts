// What the personal-data routes share: the caller's access to what a request names (decided by
// access.ts), the change of a detail under If-Match, and the DELETE of a detail. Creates answer
// through idempotent-create.ts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { callerOf } from '../../auth/token-auth.ts';
import { errors } from '../../http/error-schemas.ts';
import { parseId } from '../../http/ids.ts';
import type { App } from '../../http/types.ts';
import { appUserAccess, NOT_ALLOWED, objectAccess, type Access, type Kind, type Locator, type Need } from './access.ts';
import type { Location } from './access-queries.ts';
import { writeIfMatch, type Current } from './conditional-write.ts';
import { IdParams } from './field-schemas.ts';
import type { AccessorWrite, WriteTerms } from './write-terms.ts';

type WithId = FastifyRequest & { params: { id: string } };

/**
 * `run` with the caller's access to the object `kind` the path's `{id}` names, or to what is
 * under it, decided first; `location`: where the object was found when it had to be located
 * (a caller with grants), for a read that can use it; `locator`: a read's own locate (access.ts).
 */
export async function onObject<T, L extends Location = Location>(
  ctx: AppContext,
  request: WithId,
  kind: Kind,
  need: Need,
  run: (access: Access, id: number, location: L | null) => Promise<T>,
  locator?: Locator<L>,
): Promise<T> {
  const id = parseId(request.params.id);
  const { access, location } = await objectAccess(ctx, callerOf(request), kind, id, need, locator);
  return run(access, id, location);
}

/**
 * The terms of a write, with an accessor's write named for its owner's activity log (the write
 * kernel records it): `type` is what is written, `id` it when it exists already. The owner's own
 * writes are not in the log: their terms are left as they are.
 */
export function accessorTerms(
  request: FastifyRequest,
  access: Access,
  type: AccessorWrite['type'],
  action: AccessorWrite['action'],
  terms: WriteTerms,
  id?: number,
): WriteTerms {
  if (!access.grant) return terms;
  const caller = callerOf(request);
  const activity: AccessorWrite = { readerId: caller.accountId, ownerAccountId: access.accountId, type, action, via: caller.via };
  if (id !== undefined) activity.id = id;
  return { ...terms, activity };
}

/** `run` with the caller's access to the app user the path's `{id}` names, for a request under it. */
export async function onAppUser<T>(request: WithId, need: Need, run: (access: Access, appUserId: number) => Promise<T>): Promise<T> {
  const appUserId = parseId(request.params.id);
  return run(await appUserAccess(callerOf(request), appUserId, need), appUserId);
}

/**
 * A PATCH or PUT of the object `kind` the path's `{id}` names: `change` with the caller's access
 * to write it (`need`: 'owner' for what only the owner changes), under `If-Match` when the
 * request has one (conditional-write.ts).
 */
export function changeObject<T>(
  ctx: AppContext,
  request: WithId,
  reply: FastifyReply,
  kind: Kind,
  current: Current,
  change: (access: Access, id: number, terms: WriteTerms) => Promise<T>,
  need: Exclude<Need, 'read'> = 'write',
): Promise<T> {
  return onObject(ctx, request, kind, need, (a, id) =>
    writeIfMatch(ctx, request, reply, a, id, current, (terms) => change(a, id, accessorTerms(request, a, kind, 'updated', terms, id))),
  );
}

/**
 * DELETE `path` (a detail with an `{id}` naming a `kind`, or an app user, which only its owner
 * deletes): 204, 403 for an accessor who may not, 404 when the caller cannot see it, 412 when
 * `If-Match` names another version of `current`. `doc.operationId`: `delete<Resource>`.
 * `need`: 'owner' for what only the owner deletes.
 */
export function registerDelete(
  app: App,
  ctx: AppContext,
  path: string,
  kind: Kind | 'app_user',
  doc: { tags: string[]; operationId: string; summary: string },
  current: Current,
  remove: (access: Access, id: number, terms: WriteTerms) => Promise<void>,
  need: Exclude<Need, 'read'> = 'write',
): void {
  app.delete(
    path,
    {
      schema: {
        ...doc,
        params: IdParams,
        response: { 204: Type.Null(), ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, preconditionFailed: true }) },
      },
    },
    async (request, reply) => {
      const removeIfMatch = (a: Access, id: number) =>
        writeIfMatch(ctx, request, reply, a, id, current, (terms) => remove(a, id, accessorTerms(request, a, kind, 'deleted', terms, id)));
      if (kind === 'app_user') await onAppUser(request, 'owner', removeIfMatch);
      else await onObject(ctx, request, kind, need, removeIfMatch);
      return reply.code(204).send(null);
    },
  );
}
