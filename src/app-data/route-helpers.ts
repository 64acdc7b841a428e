// What the personal-data routes share: the 201 of a create, and the DELETE of a detail.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { errors } from '../http/error-schemas.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { IdParams } from './field-schemas.ts';

/** 201 with `Location` equal to the new object's absolute url (contract §2). */
export function created<T extends { url: string }>(reply: FastifyReply, body: T): FastifyReply {
  return reply.code(201).header('location', body.url).send(body);
}

/** DELETE `path` (a detail with an `{id}`): 204, or 404 when the caller has no such object. `doc.operationId`: `delete<Resource>`. */
export function registerDelete(
  app: App,
  ctx: AppContext,
  path: string,
  doc: { tags: string[]; operationId: string; summary: string },
  remove: (ctx: AppContext, accountId: number, id: number) => Promise<void>,
): void {
  app.delete(
    path,
    { schema: { ...doc, params: IdParams, response: { 204: Type.Null(), ...errors({ auth: true, notFound: true }) } } },
    async (request, reply) => {
      await remove(ctx, callerOf(request).accountId, parseId(request.params.id));
      return reply.code(204).send(null);
    },
  );
}
