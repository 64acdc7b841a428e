// `Authorization: Token <token>` on every request (docs/accounts.md). Routes say in their config
// whether a caller must be authenticated ('required', the default), may be ('optional'), or
// is not looked at ('none'). A route that must not be known to exist by those who may not
// use it (the operators' routes, docs/operators.md) is 'hidden': a token is read when one is
// given, and a missing or bad one leaves the caller null, for the route's own 404.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { DomainError, unauthenticated } from '../errors.ts';
import type { SignInMethod } from '../db/schema.ts';
import type { App } from '../http/types.ts';
import type { DataVersion } from './data-version.ts';
import { liveGrants, type Grant } from './grants.ts';
import { tokenFinder, type TokenFinder } from './token-finder.ts';
import { revokeToken, touchToken } from './token-queries.ts';
import { ReadLedger } from '../activity/read-ledger.ts';
import { viaOf, type RequestVia } from '../activity/activity-events.ts';

export interface Caller {
  accountId: number;
  tokenId: number;
  /** How the caller's session was opened (null: before this was recorded), read with the token. */
  signInMethod: SignInMethod | null;
  /**
   * The caller's app user and its current data version (null: no app user yet). Cached views
   * of the caller's data are stamped with it; read it before reading the data.
   */
  dataVersion(): Promise<DataVersion | null>;
  /**
   * The caller's own app user (null: none yet), from the same row as `dataVersion`: read with
   * the token on PostgreSQL, kept in memory on SQLite. The access decision takes it for the
   * app user a request under one is about, so services need not find it again.
   */
  appUserId(): Promise<number | null>;
  /** The app users others share with the caller (docs/sharing.md): no query of its own. */
  grants(): Promise<readonly Grant[]>;
  /**
   * Whether the data version of `accountId`'s app user (the caller's own, or one shared with
   * it) is answered by `dataVersion` (or the grant's) without a query now: always on
   * PostgreSQL, where it comes with the token; on SQLite, unless a write made it stale.
   */
  versionKept(accountId: number): boolean;
  /**
   * For a read that takes that data version from the statement that reads the data, and so
   * reads none before it: call before that statement, and give what it found to the function
   * returned. On SQLite it is then what `dataVersion` (or the grant's) answers without a query,
   * unless that app user changed in between.
   */
  versionRead(accountId: number): (found: DataVersion) => void;
  /** How the request came (the web client or another client of the API), for the activity logs. */
  via: RequestVia;
  /**
   * Records the caller's read of what `grant` shares, at most once an hour (activity/read-ledger.ts):
   * no query otherwise, and then undefined (nothing to wait for).
   */
  noteRead(grant: Grant): Promise<void> | undefined;
}

export type AuthMode = 'required' | 'optional' | 'none' | 'hidden';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
}

/** The answer to a token no account has (revoked, ended, or its account deleted). */
export const INVALID_TOKEN = 'auth.invalidToken';

/** An expired token's WWW-Authenticate challenge: the reason, for machines (docs/api-conventions.md). */
export const TOKEN_EXPIRED_CHALLENGE = 'Token error="token_expired"';

/** Last use is written at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 3_600_000;

async function authenticate(
  ctx: AppContext,
  findToken: TokenFinder,
  reads: ReadLedger,
  request: FastifyRequest,
  header: string,
): Promise<Caller> {
  const match = /^token\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw unauthenticated(/^token\s*$/i.test(header) ? 'auth.noCredentialsInHeader' : 'auth.badTokenHeader');
  }
  const row = await findToken(match[1]!);
  if (!row) throw unauthenticated(INVALID_TOKEN);
  const now = ctx.clock.now();
  const idleTtl = ctx.config.tokenIdleTtlMs;
  if (idleTtl > 0 && now - row.last_used_at > idleTtl) {
    await revokeToken(ctx.db.kysely, row.id);
    throw unauthenticated('auth.tokenExpired', TOKEN_EXPIRED_CHALLENGE);
  }
  if (now - row.last_used_at > TOUCH_INTERVAL_MS) await touchToken(ctx.db.kysely, row.id, now);
  const via = viaOf(request);
  let grants: Promise<readonly Grant[]> | undefined;
  return {
    accountId: row.account_id,
    tokenId: row.id,
    signInMethod: row.sign_in_method,
    dataVersion: row.dataVersion,
    appUserId: async () => (await row.dataVersion())?.appUserId ?? null,
    // An accessor past its expiry grants nothing from that moment (grants.ts), whatever is cached.
    grants: () => {
      grants ??= row.grants().then((all) => liveGrants(all, now));
      return grants;
    },
    via,
    noteRead: (grant) => reads.note(row.account_id, grant, via),
    versionKept: row.versionKept,
    versionRead: row.versionRead,
  };
}

export function registerTokenAuth(app: App, ctx: AppContext): void {
  const findToken = tokenFinder(ctx.db, ctx.cacheCounts);
  const reads = new ReadLedger(ctx.db, ctx.clock);
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const mode = request.routeOptions.config?.auth ?? 'required';
    if (mode === 'none' || request.is404) return;
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      if (mode === 'required') throw unauthenticated('auth.notAuthenticated');
      return;
    }
    if (mode === 'hidden') {
      request.caller = await authenticate(ctx, findToken, reads, request, header).catch((error: unknown) => {
        if (error instanceof DomainError && error.kind === 'unauthenticated') return null;
        throw error;
      });
      return;
    }
    request.caller = await authenticate(ctx, findToken, reads, request, header);
  });
}

/** The authenticated caller of a route whose auth mode is 'required'. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthenticated('auth.notAuthenticated');
  return request.caller;
}
