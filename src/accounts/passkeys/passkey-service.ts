// A signed-in person's passkeys (docs/sign-in-providers.md): adding one (the password first, then the
// authenticator's answer to the challenge the options carried), listing, renaming, removing.
// Removing the last way into the account — no password, no other passkey, no identity — is refused.
// Every passkey added e-mails the primary address, through the outbox with the insert.
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import type { AppContext } from '../../context.ts';
import { conflict, fieldError, notFound } from '../../errors.ts';
import { queueEmail } from '../../mail/email-delivery.ts';
import { recipientLanguage } from '../../mail/recipient-language.ts';
import { passkeyAddedMessage } from '../../mail/messages.ts';
import { lockAccount } from '../core/account-lock.ts';
import { findAccount, type AccountRow } from '../core/account-queries.ts';
import { insertChallenge, spendChallenge } from './challenge-queries.ts';
import {
  credentialExists,
  deletePasskey,
  findPasskey,
  insertPasskey,
  listPasskeys,
  type PasskeyRow,
  renamePasskey,
} from './passkey-queries.ts';
import { isLastWayIn, waysIn } from '../core/ways-in.ts';
import { confirmOwner } from '../sessions/owner-confirmation.ts';
import type { PasskeyCreationBody } from './passkey-schemas.ts';
import { CEREMONY_TIMEOUT_MS, challengeIn, creationOptions, verifyCreation } from './webauthn-ceremonies.ts';
import { recordSecurityEvent, type Via } from '../../activity/activity-events.ts';
import { queueAccountEvent } from '../../webhooks/webhook-events.ts';

export const PASSWORD_NEEDED = 'passkeys.passwordNeeded';
export const SIGN_IN_AGAIN = 'passkeys.signInAgain';

export const DEAD_REGISTRATION = 'passkeys.deadRegistration';
export const ALREADY_REGISTERED = 'passkeys.alreadyRegistered';
export const LAST_WAY_IN = 'passkeys.lastWayIn';

const PASSKEY_INDEX = { name: 'passkeys_credential_id_key', columns: 'passkeys.credential_id' };

async function accountOf(ctx: AppContext, accountId: number): Promise<AccountRow> {
  const account = await findAccount(ctx.db.kysely, accountId);
  if (!account) throw notFound();
  return account;
}

/**
 * The options for the authenticator, after the password — or, for an account without one
 * (made by another provider), after a fresh sign-in: the session asking was opened within
 * the last 5 minutes. Their challenge waits for the answer.
 */
export async function startPasskeyRegistration(
  ctx: AppContext,
  passwordChecks: PasswordCheckThrottle,
  caller: { accountId: number; tokenId: number },
  password: string | undefined,
): Promise<unknown> {
  const { accountId } = caller;
  const account = await accountOf(ctx, accountId);
  await confirmOwner(ctx, passwordChecks, caller, account, password, { passwordNeeded: PASSWORD_NEEDED, signInAgain: SIGN_IN_AGAIN });
  const options = await creationOptions(ctx.config.webauthn, account, await listPasskeys(ctx.db.kysely, accountId));
  await insertChallenge(ctx.db.kysely, {
    challenge: options.challenge,
    purpose: 'registration',
    accountId,
    expiresAt: ctx.clock.now() + CEREMONY_TIMEOUT_MS,
  });
  return options;
}

/** Checks the authenticator's answer to this account's challenge and keeps the new passkey. */
export async function addPasskey(ctx: AppContext, accountId: number, body: PasskeyCreationBody, via: Via): Promise<PasskeyRow> {
  const account = await accountOf(ctx, accountId);
  const challenge = challengeIn(body.response);
  // Spent whatever the answer turns out to be: a challenge is good for one try.
  if (!(await spendChallenge(ctx.db.kysely, challenge, 'registration', accountId, ctx.clock.now()))) {
    throw fieldError('response', DEAD_REGISTRATION);
  }
  const credential = await verifyCreation(ctx.config.webauthn, body.response, challenge);
  try {
    const row = await ctx.db.transaction(async (trx) => {
      await lockAccount(ctx, trx, accountId);
      if (await credentialExists(trx, credential.credentialId)) throw fieldError('response', ALREADY_REGISTERED);
      const inserted = await insertPasskey(trx, {
        account_id: accountId,
        credential_id: credential.credentialId,
        public_key: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports,
        backed_up: credential.backedUp ? 1 : 0,
        name: body.name,
        created_at: ctx.clock.now(),
      });
      await queueEmail(
        ctx,
        trx,
        passkeyAddedMessage(await recipientLanguage(ctx.config, trx, accountId), account.email, body.name),
        accountId,
      );
      await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'passkey_added', via, {
        object: { type: 'passkey', id: inserted.id, name: body.name },
      });
      await queueAccountEvent(ctx, trx, 'account.second_factor_changed', accountId);
      return inserted;
    });
    ctx.outbox.wake();
    return row;
  } catch (error) {
    // Two answers with one new credential racing each other: the unique index keeps one.
    if (ctx.db.isUniqueViolation(error, PASSKEY_INDEX)) throw fieldError('response', ALREADY_REGISTERED);
    throw error;
  }
}

export function passkeysOf(ctx: AppContext, accountId: number): Promise<PasskeyRow[]> {
  return listPasskeys(ctx.db.kysely, accountId);
}

export async function passkeyOf(ctx: AppContext, accountId: number, id: number): Promise<PasskeyRow> {
  const passkey = await findPasskey(ctx.db.kysely, accountId, id);
  if (!passkey) throw notFound();
  return passkey;
}

export async function renameAccountPasskey(ctx: AppContext, accountId: number, id: number, name: string): Promise<PasskeyRow> {
  if (!(await renamePasskey(ctx.db.kysely, accountId, id, name))) throw notFound();
  return passkeyOf(ctx, accountId, id);
}

/** 409 when it is the last way in: no password, no other passkey, no identity (core/ways-in.ts). */
export async function removePasskey(ctx: AppContext, accountId: number, id: number, via: Via): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await lockAccount(ctx, trx, accountId);
    const passkeys = await listPasskeys(trx, accountId);
    const passkey = passkeys.find((p) => p.id === id);
    if (!passkey) throw notFound();
    const ways = await waysIn(trx, accountId);
    if (!ways) throw notFound();
    if (isLastWayIn(ways, 'passkey')) throw conflict(LAST_WAY_IN);
    await deletePasskey(trx, accountId, id);
    await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'passkey_removed', via, {
      object: { type: 'passkey', id, name: passkey.name },
    });
    await queueAccountEvent(ctx, trx, 'account.second_factor_changed', accountId);
  });
  ctx.outbox.wake();
}
