// Signing in with a passkey (docs/sign-in-providers.md): options without an address (discoverable
// credentials), then the authenticator's answer. A passkey with user verification is both
// factors, so the answer earns a session token as a login does, with no TOTP step. The answer
// must answer a challenge this service issued, unexpired and unused; name a passkey that is
// here; and carry a signature counter that moved forward (when the authenticator keeps one):
// a counter going back means a cloned authenticator, and it is refused.
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { LoginThrottle } from '../../auth/login-throttle.ts';
import type { AppContext } from '../../context.ts';
import { fieldError } from '../../errors.ts';
import { type Origin, sessionOrigin } from '../sessions/session-origin.ts';
import { issueSignInToken } from '../sessions/sign-in-token.ts';
import { insertChallenge, spendChallenge } from './challenge-queries.ts';
import { findPasskeyByCredential, recordPasskeyUse } from './passkey-queries.ts';
import {
  CEREMONY_TIMEOUT_MS,
  challengeIn,
  counterIn,
  NOT_VERIFIED,
  requestOptions,
  userHandleOf,
  verifyAssertion,
} from './webauthn-ceremonies.ts';

export const DEAD_SIGN_IN = 'passkeys.deadSignIn';
export const UNKNOWN_PASSKEY = 'passkeys.unknown';
export const CLONED_PASSKEY = 'passkeys.cloned';

export async function startPasskeySignIn(ctx: AppContext): Promise<unknown> {
  const options = await requestOptions(ctx.config.webauthn);
  await insertChallenge(ctx.db.kysely, {
    challenge: options.challenge,
    purpose: 'authentication',
    accountId: null,
    expiresAt: ctx.clock.now() + CEREMONY_TIMEOUT_MS,
  });
  return options;
}

export async function signInWithPasskey(
  ctx: AppContext,
  throttle: LoginThrottle,
  input: Origin & { response: AuthenticationResponseJSON },
): Promise<string> {
  const attempt = await throttle.beginWithoutAccount(input.ip);
  const { response } = input;
  const challenge = challengeIn(response);
  if (!(await spendChallenge(ctx.db.kysely, challenge, 'authentication', null, ctx.clock.now())))
    throw fieldError('response', DEAD_SIGN_IN);
  const passkey = await findPasskeyByCredential(ctx.db.kysely, response.id);
  if (!passkey) throw fieldError('response', UNKNOWN_PASSKEY);
  const userHandle = response.response.userHandle;
  if (userHandle !== undefined && userHandle !== '' && userHandle !== userHandleOf(passkey.account_id)) {
    throw fieldError('response', NOT_VERIFIED);
  }
  const counter = counterIn(response);
  if ((counter > 0 || passkey.counter > 0) && counter <= passkey.counter) throw fieldError('response', CLONED_PASSKEY);
  const use = await verifyAssertion(ctx.config.webauthn, response, challenge, passkey);

  const token = await ctx.db.transaction(async (trx) => {
    // Another sign-in with the same counter got there first: one of the two is a clone.
    if (!(await recordPasskeyUse(trx, passkey, { ...use, at: ctx.clock.now() }))) throw fieldError('response', CLONED_PASSKEY);
    return issueSignInToken(ctx, trx, passkey.account_id, 'passkey', sessionOrigin(input));
  });
  await attempt.succeeded();
  return token;
}
