// Sealing secrets at rest: what is sealed opens only with a key of the ring, for the same
// context, unaltered; a ring with a new key first still opens what an older key sealed.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { SecretBox } from '../../src/auth/secret-box.ts';

describe('SecretBox', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  test('opens what it sealed; the sealed form holds neither the secret nor the key', () => {
    const box = new SecretBox([oldKey]);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp:1');
    assert.equal(box.open(sealed, 'totp:1'), 'JBSWY3DPEHPK3PXP');
    assert.ok(!sealed.includes('JBSWY3DPEHPK3PXP'));
    assert.ok(!sealed.includes(oldKey.toString('base64url')));
    assert.notEqual(box.seal('JBSWY3DPEHPK3PXP', 'totp:1'), sealed, 'a fresh nonce each time');
  });

  test('another context, an altered value or a key not in the ring: refused', () => {
    const box = new SecretBox([oldKey]);
    const sealed = box.seal('secret', 'totp:1');
    assert.throws(() => box.open(sealed, 'totp:2'));
    const parts = sealed.split('.');
    const bytes = Buffer.from(parts[3]!, 'base64url');
    bytes[0]! ^= 1;
    assert.throws(() => box.open([...parts.slice(0, 3), bytes.toString('base64url')].join('.'), 'totp:1'));
    assert.throws(() => new SecretBox([newKey]).open(sealed, 'totp:1'), /MFA_ENCRYPTION_KEY/);
  });

  test('a shortened tag is refused: only the whole 16-byte tag opens a value', () => {
    const box = new SecretBox([oldKey]);
    const parts = box.seal('', 'c').split('.');
    const shortened = Buffer.from(parts[3]!, 'base64url').subarray(0, 4).toString('base64url');
    assert.throws(() => box.open([...parts.slice(0, 3), shortened].join('.'), 'c'));
  });

  test('a ring with a new key first seals with it and still opens what the old key sealed', () => {
    const sealedOld = new SecretBox([oldKey]).seal('old', 'c');
    const ring = new SecretBox([newKey, oldKey]);
    assert.equal(ring.open(sealedOld, 'c'), 'old');
    const sealedNew = ring.seal('new', 'c');
    assert.equal(new SecretBox([newKey]).open(sealedNew, 'c'), 'new');
    assert.throws(() => new SecretBox([oldKey]).open(sealedNew, 'c'));
  });

  test('keys must be 32 bytes', () => {
    assert.throws(() => new SecretBox([]));
    assert.throws(() => new SecretBox([randomBytes(16)]));
  });
});
