// Signing in with another provider (docs/sign-in-providers.md). One account per (issuer, subject). A new
// subject whose address the provider marks verified, and that no account holds, makes an
// account: that address, verified; no password (one can be set through the reset flow). A new
// subject whose address an account here holds is never linked to it silently: 400, sign in
// and link it from the settings. A signed-in person links by the same flows.
//
// The web flow: start (state, nonce and PKCE verifier kept in oidc_flows, 10 minutes) → the
// provider → the callback, which checks the answer and sends the browser to the web client
// with a one-time login code (60 s, single use), or with the reason it failed. The flow and
// its code belong to the browser that started it (sign-in-browser.ts). The native
// flow: an app sends the ID token of the platform's own sign-in (and Apple's authorization
// code); each ID token works once.
//
// Either way, signing in answers as the password login does: a token, or with TOTP on the
// two-step answer (sessions/sign-in-answer.ts).
import type { Language } from '../../i18n/languages.ts';
import type { OidcProvider, ProviderClaims } from '../../auth/oidc-relying-party.ts';
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import { hashSecret, newSecret } from '../../auth/token-hash.ts';
import type { AppContext } from '../../context.ts';
import { DomainError, fieldError, nonFieldError, isMessage, type Message } from '../../errors.ts';
import { writeMessage } from '../../http/error-language.ts';
import { queueEmail } from '../../mail/email-delivery.ts';
import { recipientLanguage } from '../../mail/recipient-language.ts';
import { identityLinkedMessage } from '../../mail/messages.ts';
import { queueMemberSync } from '../../mailchimp/queue-member-sync.ts';
import { lockAccount } from '../core/account-lock.ts';
import { findAccount, insertAccount } from '../core/account-queries.ts';
import { queueAccountEvent } from '../../webhooks/webhook-events.ts';
import { isDuplicateEmailError } from '../emails/duplicate-email.ts';
import { emailTaken, insertAddress, markAddressVerified } from '../emails/email-address-queries.ts';
import { NOOP_ACTION } from '../emails/email-schemas.ts';
import { releaseExpiredHold } from '../emails/unverified-holds.ts';
import { confirmOwner } from '../sessions/owner-confirmation.ts';
import { type LoginResult, type Origin, signInAnswer } from '../sessions/sign-in-answer.ts';
import { insertFlow, spendFlow } from './flow-queries.ts';
import {
  findIdentityBySubject,
  IDENTITY_INDEX,
  type IdentityRow,
  insertIdentity,
  recordIdentitySession,
  recordIdentityUse,
} from './identity-queries.ts';
import { insertLoginCode, LOGIN_CODE_TTL_MS, spendLoginCode } from './login-code-queries.ts';
import { refreshTokenContext } from './refresh-token-revocation.ts';
import { recordUsedToken } from './used-token-queries.ts';
import { recordSecurityEvent, type Via } from '../../activity/activity-events.ts';

export const LINK_FROM_SETTINGS = 'identity.linkFromSettings';
export const NO_VERIFIED_EMAIL = 'identity.noVerifiedEmail';
export const LINKED_ELSEWHERE = 'identity.linkedElsewhere';
export const DEAD_FLOW = 'identity.deadFlow';
export const REPLAYED_ID_TOKEN = 'identity.replayedIdToken';
export const DEAD_LOGIN_CODE = 'identity.deadLoginCode';
export const BAD_REDIRECT = 'identity.badRedirect';
export const NOT_SIGNED_IN = 'identity.accountGone';
export const PASSWORD_TO_LINK = 'identity.passwordToLink';
export const SIGN_IN_AGAIN_TO_LINK = 'identity.signInAgainToLink';

/** How long a web flow waits for the provider's answer. */
export const FLOW_TTL_MS = 10 * 60_000;

/** Where the web client takes the one-time code (or the reason the sign-in failed). */
export const WEB_SIGN_IN_PATH = '/sign-in/provider';

/** What a sign-in with the provider proved, and what came with it. */
interface ProvenSignIn {
  claims: ProviderClaims;
  refreshToken: string | undefined;
  /** Names the provider sent beside the token (Apple, once, in its form post). */
  names?: { firstName: string; lastName: string };
}

/** A path of this site (not `//host`, no backslashes): where the web client lands afterwards. */
function checkedRedirect(redirect: string | undefined): string {
  const path = redirect ?? '/';
  if (!/^\/(?![/\\])[^\s\\]*$/.test(path) || path.length > 2000) throw fieldError('redirect', BAD_REDIRECT);
  return path;
}

/**
 * The provider's authorization URL for a new web flow: a sign-in, or (with `accountId`) a link;
 * it belongs to the browser whose cookie hashes to `browserHash` (sign-in-browser.ts).
 */
export async function startWebFlow(
  ctx: AppContext,
  name: string,
  redirect: string | undefined,
  accountId: number | null,
  browserHash: string,
): Promise<string> {
  const provider = ctx.oidc.named(name);
  const path = checkedRedirect(redirect);
  const checks = provider.newChecks();
  const url = await provider.authorizationUrl(checks);
  await insertFlow(ctx.db.kysely, {
    state: checks.state,
    provider: provider.settings.name,
    nonce: checks.nonce,
    code_verifier: checks.codeVerifier,
    redirect: path,
    account_id: accountId,
    browser_hash: browserHash,
    expires_at: ctx.clock.now() + FLOW_TTL_MS,
  });
  return url;
}

/**
 * The provider's answer (query or form fields) → where the browser goes: the web client with
 * a one-time code, or, for a link, back where it started; with `error` when it failed, a
 * sentence in the browser's language (`language`). An answer naming no flow of ours is 400:
 * there is nowhere of ours to send it.
 */
export async function completeWebFlow(
  ctx: AppContext,
  name: string,
  answer: URLSearchParams,
  browserHash: string | undefined,
  language: Language,
): Promise<string> {
  const provider = ctx.oidc.named(name);
  const state = answer.get('state');
  const flow =
    state && browserHash ? await spendFlow(ctx.db.kysely, provider.settings.name, state, browserHash, ctx.clock.now()) : undefined;
  if (!flow || !browserHash) throw nonFieldError(DEAD_FLOW);
  const base = ctx.config.publicUrl;
  const linking = flow.account_id !== null;
  const fail = (message: Message) =>
    linking
      ? `${base}${flow.redirect}#${new URLSearchParams({ error: writeMessage(message, language) })}`
      : `${base}${WEB_SIGN_IN_PATH}#${new URLSearchParams({ error: writeMessage(message, language), next: flow.redirect })}`;
  try {
    const names = appleNames(answer);
    const fields = new URLSearchParams(answer);
    fields.delete('user');
    const signIn = await provider.completeCallback(
      fields,
      { state: flow.state, nonce: flow.nonce, codeVerifier: flow.code_verifier },
      ctx.clock.now(),
    );
    const proven: ProvenSignIn = { ...signIn, names };
    if (flow.account_id !== null) {
      // The provider's answer comes back to a browser: a web flow is the web client's.
      await linkIdentity(ctx, flow.account_id, provider, proven, 'web');
      return `${base}${flow.redirect}#${new URLSearchParams({ linked: provider.settings.name })}`;
    }
    const { account, identity } = await identityFor(ctx, provider, proven, language);
    const code = newSecret();
    await insertLoginCode(ctx.db.kysely, {
      codeHash: hashSecret(code),
      accountId: account.id,
      identityId: identity.id,
      browserHash,
      expiresAt: ctx.clock.now() + LOGIN_CODE_TTL_MS,
    });
    return `${base}${WEB_SIGN_IN_PATH}#${new URLSearchParams({ code, next: flow.redirect })}`;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'invalid') return fail(firstMessage(error));
    // The account (signing in or linking) was deleted while this ran: its code or identity has no account.
    if (ctx.db.isForeignKeyViolation(error)) return fail(NOT_SIGNED_IN);
    throw error;
  }
}

/** POST /auth/login/code/: the web client's one-time code, from the browser whose flow made it → the login's answers. */
export async function signInWithLoginCode(
  ctx: AppContext,
  code: string,
  browserHash: string | undefined,
  origin: Origin,
): Promise<LoginResult> {
  const spent = browserHash ? await spendLoginCode(ctx.db.kysely, hashSecret(code), browserHash, ctx.clock.now()) : undefined;
  if (!spent) throw fieldError('code', DEAD_LOGIN_CODE);
  const account = await findAccount(ctx.db.kysely, spent.account_id);
  if (!account) throw fieldError('code', DEAD_LOGIN_CODE);
  return answer(ctx, { id: account.id, password_hash: account.password_hash }, spent.identity_id, origin);
}

/** The native flow: an app's ID token (and Apple's authorization code) → the login's answers. */
export async function signInWithIdToken(
  ctx: AppContext,
  name: string,
  body: { id_token: string; nonce?: string; code?: string },
  origin: Origin,
  language: Language,
): Promise<LoginResult> {
  const provider = ctx.oidc.named(name);
  const proven = await provenByIdToken(ctx, provider, body);
  const { account, identity } = await identityFor(ctx, provider, proven, language);
  return answer(ctx, account, identity.id, origin);
}

/**
 * Signed in, POST /account/identities/{name}/: once the owner confirmed (the password, or a
 * fresh sign-in without one), the web flow's URL to send the browser to (`redirect`), or the
 * identity an app's ID token proves, linked.
 */
export async function startLinking(
  ctx: AppContext,
  passwordChecks: PasswordCheckThrottle,
  caller: { accountId: number; tokenId: number; via: Via },
  name: string,
  body: { redirect: string; password?: string } | { id_token: string; nonce?: string; code?: string; password?: string },
  browserHash: string,
): Promise<{ authorizationUrl: string } | { identity: IdentityRow }> {
  const provider = ctx.oidc.named(name);
  const account = await findAccount(ctx.db.kysely, caller.accountId);
  if (!account) throw nonFieldError(NOT_SIGNED_IN);
  await confirmOwner(ctx, passwordChecks, caller, account, body.password, {
    passwordNeeded: PASSWORD_TO_LINK,
    signInAgain: SIGN_IN_AGAIN_TO_LINK,
  });
  if ('redirect' in body) {
    return { authorizationUrl: await startWebFlow(ctx, provider.settings.name, body.redirect, caller.accountId, browserHash) };
  }
  return { identity: await linkIdentity(ctx, caller.accountId, provider, await provenByIdToken(ctx, provider, body), caller.via) };
}

async function provenByIdToken(
  ctx: AppContext,
  provider: OidcProvider,
  body: { id_token: string; nonce?: string; code?: string },
): Promise<ProvenSignIn> {
  const claims = await provider.verifyIdToken(body.id_token, body.nonce, ctx.clock.now());
  if (!(await recordUsedToken(ctx.db.kysely, usedTokenKey(body.id_token), claims.expiresAt))) {
    throw fieldError('id_token', REPLAYED_ID_TOKEN);
  }
  const refreshToken = body.code && provider.isApple ? await provider.redeemAppCode(body.code, claims.audience) : undefined;
  return { claims, refreshToken };
}

/**
 * What makes a used ID token the same token: the hash of its signed part (header and payload,
 * exactly as sent). That part cannot change without the signature failing. The signature
 * itself can: base64url leaves low bits of its last character unused and decoders skip
 * characters such as spaces, so the same signature has many spellings — and an ECDSA signature
 * (r, s) has a second valid value (r, n − s) anyone can compute. Keyed on the whole string, or
 * on the signature, a used token came back as new.
 */
function usedTokenKey(verifiedToken: string): string {
  return hashSecret(verifiedToken.slice(0, verifiedToken.lastIndexOf('.')));
}

async function answer(
  ctx: AppContext,
  account: { id: number; password_hash: string },
  identityId: number | null,
  origin: Origin,
): Promise<LoginResult> {
  const result = await signInAnswer(
    ctx,
    { account_id: account.id, password_hash: account.password_hash },
    'provider',
    origin,
    identityId ?? undefined,
  );
  if ('token' in result && identityId !== null) await recordIdentitySession(ctx.db.kysely, identityId, hashSecret(result.token));
  return result;
}

/** Apple keeps only its refresh token, sealed; other providers' are not needed. */
function keptRefreshToken(ctx: AppContext, provider: OidcProvider, proven: ProvenSignIn) {
  if (!provider.isApple || proven.refreshToken === undefined) return undefined;
  return { sealed: ctx.secrets.mfa.seal(proven.refreshToken, refreshTokenContext(proven.claims)), clientId: proven.claims.audience };
}

/**
 * The identity's account, or a new account for a new subject (never an existing account's address),
 * in `language`: the one the request asked for.
 */
async function identityFor(
  ctx: AppContext,
  provider: OidcProvider,
  proven: ProvenSignIn,
  language: Language,
): Promise<{ account: { id: number; password_hash: string }; identity: IdentityRow }> {
  const { claims } = proven;
  const existing = await findIdentityBySubject(ctx.db.kysely, claims.issuer, claims.subject);
  if (existing) {
    await recordIdentityUse(ctx.db.kysely, existing.account_id, existing.id, {
      at: ctx.clock.now(),
      email: claims.email,
      refreshToken: keptRefreshToken(ctx, provider, proven),
    });
    const account = await findAccount(ctx.db.kysely, existing.account_id);
    if (!account) throw nonFieldError(NOT_SIGNED_IN);
    return { account, identity: existing };
  }
  if (!claims.email || !claims.emailVerified) throw nonFieldError(NO_VERIFIED_EMAIL);
  const email = claims.email;
  await releaseExpiredHold(ctx.db.kysely, email, ctx.clock.now() - ctx.config.unverifiedAccountTtlMs);
  if (await emailTaken(ctx.db.kysely, email)) throw nonFieldError(LINK_FROM_SETTINGS);
  const firstName = proven.names?.firstName || claims.firstName;
  const lastName = proven.names?.lastName || claims.lastName;
  const kept = keptRefreshToken(ctx, provider, proven);
  try {
    const made = await ctx.db.transaction(async (trx) => {
      const now = ctx.clock.now();
      const accountId = await insertAccount(trx, { firstName, lastName, passwordHash: '', language, now });
      const address = await insertAddress(trx, { accountId, email, primary: true, verifiedAction: NOOP_ACTION, now });
      await markAddressVerified(trx, address.id);
      const identity = await insertIdentity(trx, {
        account_id: accountId,
        provider: provider.settings.name,
        issuer: claims.issuer,
        subject: claims.subject,
        email,
        refresh_token: kept?.sealed ?? null,
        client_id: kept?.clientId ?? null,
        created_at: now,
      });
      await queueMemberSync(ctx, trx, accountId, { previousEmail: email, email, firstName, lastName });
      // Made with its address verified by the provider: created and verified at once.
      await queueAccountEvent(ctx, trx, 'account.created', accountId);
      await queueAccountEvent(ctx, trx, 'account.verified', accountId);
      return { account: { id: accountId, password_hash: '' }, identity };
    });
    ctx.outbox.wake();
    return made;
  } catch (error) {
    // Another registration of the address committed between the check and the insert.
    if (isDuplicateEmailError(ctx.db, error)) throw nonFieldError(LINK_FROM_SETTINGS);
    // The same subject's first sign-in twice at once: the other one made the account.
    if (ctx.db.isUniqueViolation(error, IDENTITY_INDEX)) return identityFor(ctx, provider, proven, language);
    throw error;
  }
}

/** Links the proven identity to the account and mails its owner; again for the same account changes nothing. */
async function linkIdentity(
  ctx: AppContext,
  accountId: number,
  provider: OidcProvider,
  proven: ProvenSignIn,
  via: Via,
): Promise<IdentityRow> {
  const { claims } = proven;
  const kept = keptRefreshToken(ctx, provider, proven);
  try {
    const linked = await ctx.db.transaction(async (trx) => {
      await lockAccount(ctx, trx, accountId);
      const account = await findAccount(trx, accountId);
      if (!account) throw nonFieldError(NOT_SIGNED_IN);
      const existing = await findIdentityBySubject(trx, claims.issuer, claims.subject);
      if (existing && existing.account_id !== accountId) throw nonFieldError(LINKED_ELSEWHERE);
      if (existing) {
        await recordIdentityUse(trx, accountId, existing.id, { at: ctx.clock.now(), email: claims.email, refreshToken: kept });
        return existing;
      }
      const identity = await insertIdentity(trx, {
        account_id: accountId,
        provider: provider.settings.name,
        issuer: claims.issuer,
        subject: claims.subject,
        email: claims.email ?? null,
        refresh_token: kept?.sealed ?? null,
        client_id: kept?.clientId ?? null,
        created_at: ctx.clock.now(),
      });
      // A new way in: its owner hears of it, whoever linked it.
      await queueEmail(
        ctx,
        trx,
        identityLinkedMessage(await recipientLanguage(ctx.config, trx, accountId), account.email, provider.settings.label),
        accountId,
      );
      await recordSecurityEvent(trx, accountId, ctx.clock.now(), 'identity_added', via, {
        object: { type: 'identity', id: identity.id, name: identity.provider },
      });
      return identity;
    });
    ctx.outbox.wake();
    return linked;
  } catch (error) {
    if (ctx.db.isUniqueViolation(error, IDENTITY_INDEX)) throw nonFieldError(LINKED_ELSEWHERE);
    throw error;
  }
}

/** Apple's first form post carries the person's name as JSON in `user`; nothing else does. */
function appleNames(answer: URLSearchParams): { firstName: string; lastName: string } | undefined {
  const user = answer.get('user');
  if (!user) return undefined;
  try {
    const parsed = JSON.parse(user) as { name?: { firstName?: unknown; lastName?: unknown } };
    const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 150) : '');
    return { firstName: text(parsed.name?.firstName), lastName: text(parsed.name?.lastName) };
  } catch {
    return undefined;
  }
}

function firstMessage(error: DomainError): Message {
  const first = Object.values(error.body)[0];
  return Array.isArray(first) && isMessage(first[0]) ? first[0] : DEAD_FLOW;
}
