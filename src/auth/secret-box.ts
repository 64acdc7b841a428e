// Encryption at rest for secrets the service must read back (TOTP secrets): AES-256-GCM with
// a random 96-bit nonce, bound to what it belongs to (`context`, e.g. the account) so a value
// copied into another row does not decrypt. Stored as `v1.<key id>.<nonce>.<ciphertext+tag>`.
// The key ring's first key encrypts; every key decrypts, found by its id, so an operator can
// put a new key first and keep the old one behind it until nothing uses it.
import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';

const TAG_BYTES = 16;

export class SecretBox {
  readonly #keys: Map<string, Buffer>;
  readonly #current: { id: string; key: Buffer };

  /** `keys`: 32-byte keys, the one that encrypts first. */
  constructor(keys: Buffer[]) {
    if (keys.length === 0) throw new Error('a secret box needs at least one key');
    for (const key of keys) if (key.length !== 32) throw new Error('secret box keys are 32 bytes');
    this.#keys = new Map(keys.map((key) => [keyId(key), key]));
    this.#current = { id: keyId(keys[0]!), key: keys[0]! };
  }

  seal(plain: string, context: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, nonce);
    cipher.setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return ['v1', this.#current.id, nonce.toString('base64url'), sealed.toString('base64url')].join('.');
  }

  /** Throws when the value was sealed with a key this ring does not hold, for another context, or was altered. */
  open(stored: string, context: string): string {
    const [version, id, nonce, sealed] = stored.split('.');
    const key = id === undefined ? undefined : this.#keys.get(id);
    if (version !== 'v1' || !key || nonce === undefined || sealed === undefined) {
      throw new Error(`a secret was sealed with a key that is not configured (key id ${id}): check MFA_ENCRYPTION_KEY`);
    }
    const bytes = Buffer.from(sealed, 'base64url');
    // The whole tag, always: GCM with a shortened tag is a forgery that gets easier by the byte.
    if (bytes.length < TAG_BYTES) throw new Error('a sealed secret is too short to hold its tag');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

/** Names a key without revealing it: the start of its SHA-256. */
function keyId(key: Buffer): string {
  return hash('sha256', key, 'hex').slice(0, 8);
}
