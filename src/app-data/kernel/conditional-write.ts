// No lost updates (docs/offline-and-live.md): a PATCH, PUT or DELETE sent with `If-Match` goes through only
// while the resource is still what the client saw. The current tag is the one a GET would
// answer the caller (http/entity-tags.ts: a hash of their body), so it is computed the same way:
// the resource read and serialised through the route's response schema, which for these routes
// is the detail's shape.
//
// The check and the write are not one statement, so the write kernel closes the gap: the tag is
// checked at a data version read first, and the write's version bump (which holds the app
// user's row until commit) must land on exactly the next version; otherwise another write came
// in between (`VersionMoved`, nothing written) and the check is made again. Of two writers
// holding the same tag, the second then finds a new tag: 412.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { preconditionFailed } from '../../errors.ts';
import { entityTag, tagListMatches } from '../../http/entity-tags.ts';
import type { Access } from './access.ts';
import { VersionMoved } from './owned-write.ts';
import { NO_TERMS, type WriteTerms } from './write-terms.ts';
import { isStream } from '../../spool/spool-file.ts';

/** Checks made again when other writes keep landing in between, before giving up with 412. */
const ATTEMPTS = 5;

const STALE = 'conditional.stale';

async function currentVersion(db: Kysely<Database>, ownerAccountId: number): Promise<number | undefined> {
  const row = await db.selectFrom('app_users').select('data_version').where('account_id', '=', ownerAccountId).executeTakeFirst();
  return row?.data_version;
}

/** The resource as the caller would GET it (its detail's schema, and how to read it). */
export interface Current {
  schema: TSchema;
  read: (ctx: AppContext, access: Access, id: number) => Promise<object | undefined>;
}

/**
 * Runs `write`, or, when the request has `If-Match`, only while one of its tags is the current
 * tag of the resource `id` as `access` reads it (`*`: while it exists): then with the data
 * version it was checked at in its terms, for the write kernel.
 */
export async function writeIfMatch<T>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  access: Access,
  id: number,
  current: Current,
  write: (terms: WriteTerms) => Promise<T>,
): Promise<T> {
  const header = request.headers['if-match'];
  if (header === undefined) return write(NO_TERMS);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const version = await currentVersion(ctx.db.kysely, access.accountId);
    const value = await current.read(ctx, access, id);
    if (version === undefined || value === undefined) return write(NO_TERMS); // gone: the write answers its 404
    if (!ifMatchHolds(header, reply, value, current.schema)) throw preconditionFailed(STALE);
    try {
      return await write({ checkedAtVersion: version });
    } catch (error) {
      if (!(error instanceof VersionMoved)) throw error;
    }
  }
  throw preconditionFailed(STALE);
}

/** A check of `If-Match` against the resource as it is now, for writes that lock the resource itself. */
export type Precondition = (current: object) => void;

/**
 * For a write that holds its resource's row (not the app user's data version, so not
 * `writeIfMatch`: an accessor): undefined without `If-Match`, else a check to run inside the
 * write's transaction, after the lock, on the resource as a GET would answer it (`schema`).
 */
export function ifMatchPrecondition(request: FastifyRequest, reply: FastifyReply, schema: TSchema): Precondition | undefined {
  const header = request.headers['if-match'];
  if (header === undefined) return undefined;
  return (current) => {
    if (!ifMatchHolds(header, reply, current, schema)) throw preconditionFailed(STALE);
  };
}

/**
 * Whether `If-Match` holds for the resource `value`: `*` while it exists, else one of its tags is
 * the tag a GET would answer (`schema`, the detail's), compared strongly. A view written in
 * pages has no tag: only `*` holds for it.
 */
function ifMatchHolds(header: string, reply: FastifyReply, value: object, schema: TSchema): boolean {
  if (header.trim() === '*') return true;
  if (isStream(value)) return false;
  const tag = entityTag(reply.serializeInput(value as Record<string, unknown>, schema as unknown as Record<string, unknown>));
  return tagListMatches(header, tag, 'strong');
}
