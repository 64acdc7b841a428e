// MFA in tests: codes computed from the enrolled secret with the otpauth library
// (the arithmetic itself is checked against RFC 6238's vectors in test/auth/totp.test.ts).
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { TestServer } from '../helpers/server.ts';
import { PASSWORD, type RegisteredAccount } from './account-flows.ts';

export const STEP_MS = 30_000;

/** The 6-digit code of `secret` at `timestamp` (epoch ms). */
export function totpCode(secret: string, timestamp: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });
}

export interface MfaEnrolment {
  secret: string;
  recoveryCodes: string[];
}

/** Enrols and confirms TOTP for the account (its confirming code spends the current step). */
export async function turnOnTotp(server: TestServer, account: RegisteredAccount): Promise<MfaEnrolment> {
  const enrolled = await server.request('POST', '/account/mfa/totp/', { token: account.token, body: { password: PASSWORD } });
  assert.equal(enrolled.status, 201, enrolled.text);
  const secret: string = enrolled.body.secret;
  const confirmed = await server.request('POST', '/account/mfa/totp/confirm/', {
    token: account.token,
    body: { code: totpCode(secret, server.clock.now()) },
  });
  assert.equal(confirmed.status, 200, confirmed.text);
  return { secret, recoveryCodes: confirmed.body.recovery_codes };
}

/** Moves the clock to the next step and gives its code: one no earlier request has spent. */
export function freshCode(server: TestServer, secret: string): string {
  server.clock.advance(STEP_MS);
  return totpCode(secret, server.clock.now());
}
