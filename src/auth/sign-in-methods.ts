// How a session was opened (auth_tokens.sign_in_method), and whether that took two factors.
// What asks for two factors asks it of the session the request comes with: an account that
// holds a second factor can still be signed into without it (a passkey, with the password
// alone), and a factor added within a session does not make that session stronger.
import type { SignInMethod } from '../db/schema.ts';

export type { SignInMethod };

/**
 * True when the session was opened with two factors: a TOTP or recovery code after the
 * password, the provider or an e-mailed code, or a passkey (always with user verification here). A session
 * from before methods were recorded (null) counts as one factor.
 */
export function openedWithTwoFactors(method: SignInMethod | null): boolean {
  return method === 'password+totp' || method === 'provider+totp' || method === 'email_code+totp' || method === 'passkey';
}
