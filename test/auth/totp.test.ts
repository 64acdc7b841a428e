// The TOTP arithmetic against RFC 6238's own test vectors (appendix B, SHA-1), whose 8-digit
// codes end in the 6-digit codes the service uses, and the step a code is matched to.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { matchTotp, newTotpSecret, otpauthUrl } from '../../src/auth/totp.ts';

// The RFC's SHA-1 seed, ASCII "12345678901234567890", in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const VECTORS: Array<[seconds: number, code: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  for (const [seconds, code] of VECTORS) {
    test(`the RFC's code at T=${seconds} matches its own step`, () => {
      const six = code.slice(-6);
      assert.equal(matchTotp(RFC_SECRET, six, seconds * 1000), Math.floor(seconds / 30));
      // One step of tolerance either way, not two.
      assert.equal(matchTotp(RFC_SECRET, six, (seconds + 30) * 1000), Math.floor(seconds / 30));
      assert.equal(matchTotp(RFC_SECRET, six, (seconds - 30) * 1000), Math.floor(seconds / 30));
      assert.equal(matchTotp(RFC_SECRET, six, (seconds + 61) * 1000), null);
    });
  }

  test('anything but six digits is no code', () => {
    for (const code of ['', '94287', '4287082', '28708a', ' 287082', '２８７０８２'])
      assert.equal(matchTotp(RFC_SECRET, code, 59_000), null);
  });

  test('new secrets are 160 random bits in base32; the otpauth URL names issuer and account', () => {
    const secret = newTotpSecret();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.notEqual(newTotpSecret(), secret);
    assert.equal(
      otpauthUrl(RFC_SECRET, 'Profile Service', 'a@example.com'),
      `otpauth://totp/Profile%20Service:a%40example.com?issuer=Profile%20Service&secret=${RFC_SECRET}&algorithm=SHA1&digits=6&period=30`,
    );
  });
});
