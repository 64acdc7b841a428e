// Login (contract §3): an unknown address and a wrong password answer alike, in status, body
// and time (the password is checked against a dummy hash when no account has the address).
// Only a verified address logs in; any verified address of the account does.
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { MAX_PASSWORD_LENGTH, verifyPassword } from '../auth/passwords.ts';
import { issueToken } from '../auth/token-queries.ts';
import type { AppContext } from '../context.ts';
import { nonFieldError } from '../errors.ts';
import { findLoginAddress } from './email-address-queries.ts';
import { sessionOrigin } from './session-origin.ts';

export const INVALID_CREDENTIALS = 'Invalid credentials: unable to log in with the provided e-mail address and password.';
export const UNVERIFIED_ADDRESS = 'This e-mail address is not verified yet. Verify it first with the link we sent to it, then log in.';

export interface LoginInput {
  email: string;
  password: string;
  ip: string;
  /** The User-Agent header, remembered with the session. */
  userAgent: string | undefined;
}

/** Returns a new token for the account. */
export async function logIn(ctx: AppContext, throttle: LoginThrottle, input: LoginInput): Promise<string> {
  const address = await findLoginAddress(ctx.db.kysely, input.email);
  const throttleKey = address ? `account:${address.account_id}` : `address:${input.email.toLowerCase()}`;
  const attempt = throttle.begin(throttleKey, input.ip);

  // Too long to be anyone's password: refused without hashing it.
  const passwordMatches = input.password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(address?.password_hash, input.password));
  if (!address || !passwordMatches) throw nonFieldError(INVALID_CREDENTIALS);
  attempt.succeeded();

  if (address.verified !== 1) throw nonFieldError(UNVERIFIED_ADDRESS);
  return issueToken(ctx.db.kysely, address.account_id, ctx.clock.now(), sessionOrigin(input.userAgent, input.ip));
}
