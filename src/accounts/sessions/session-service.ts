// Sessions (docs/accounts.md): the caller's login tokens, listed and revoked one by one. A revoked
// token is gone from the database, so the next request with it is 401 on every instance: on
// SQLite the in-process token cache drops it the moment its row goes (change-feed.ts), and
// PostgreSQL keeps no cache of tokens.
import type { Caller } from '../../auth/token-auth.ts';
import { listAccountTokens, revokeAccountToken, revokeAccountTokens } from '../../auth/token-queries.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { deleteAccountChallenges } from '../mfa/mfa-queries.ts';
import { toSession, type Session } from './session-schemas.ts';
import { recordSecurityEvent } from '../../activity/activity-events.ts';

export async function listSessions(ctx: AppContext, caller: Caller): Promise<Session[]> {
  const rows = await listAccountTokens(ctx.db.kysely, caller.accountId);
  return rows.map((row) => toSession(row, caller.tokenId));
}

/** Ends one of the caller's sessions; in the security log with how it was opened and from where. False: no such session. */
async function endSession(ctx: AppContext, trx: Kysely<Database>, caller: Caller, sessionId: number): Promise<boolean> {
  const ended = await revokeAccountToken(trx, caller.accountId, sessionId);
  if (!ended) return false;
  await recordSecurityEvent(trx, caller.accountId, ctx.clock.now(), 'session_ended', caller.via, {
    object: { type: 'session', id: sessionId, name: ended.sign_in_method },
    ipAddress: ended.ip_address,
    userAgent: ended.user_agent,
  });
  return true;
}

/** Revokes one of the caller's sessions (the current one too); another account's is 404. */
export async function revokeSession(ctx: AppContext, caller: Caller, sessionId: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    if (!(await endSession(ctx, trx, caller, sessionId))) throw notFound();
  });
}

/** Ends the session the request came with (log out). */
export async function endCurrentSession(ctx: AppContext, caller: Caller): Promise<void> {
  await ctx.db.transaction((trx) => endSession(ctx, trx, caller, caller.tokenId));
}

/** Logs the account out everywhere: every token, and every login waiting for its second step. */
export async function revokeAllSessions(ctx: AppContext, caller: Caller): Promise<void> {
  const { accountId } = caller;
  await ctx.db.transaction(async (trx) => {
    await revokeAccountTokens(trx, accountId);
    await deleteAccountChallenges(trx, accountId);
    await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'sessions_ended', caller.via);
  });
}
