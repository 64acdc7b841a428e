// The private key that signs messaging identity tokens (docs/messaging-and-sync.md), read once at start-up
// from MESSAGING_PRIVATE_KEY_FILE. A key that cannot sign RS256 tokens stops start-up here,
// with a message naming the variable, rather than failing every request later.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config.ts';

/** RS256 needs a modulus of at least 2048 bits (RFC 7518 §3.3); jose refuses smaller keys. */
const MIN_MODULUS_BITS = 2048;

export function loadMessagingKey(file: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new ConfigError(`MESSAGING_PRIVATE_KEY_FILE "${file}" cannot be read (${reason})`);
  }
  let key: KeyObject;
  try {
    // Accepts PEM in PKCS#8 ("BEGIN PRIVATE KEY") and PKCS#1 ("BEGIN RSA PRIVATE KEY").
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new ConfigError(`MESSAGING_PRIVATE_KEY_FILE "${file}" does not hold an unencrypted private key in PEM (PKCS#8 or PKCS#1)`);
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new ConfigError(
      `MESSAGING_PRIVATE_KEY_FILE "${file}" holds a key of type "${key.asymmetricKeyType ?? 'unknown'}"; RS256 needs an RSA private key`,
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_MODULUS_BITS) {
    throw new ConfigError(
      `MESSAGING_PRIVATE_KEY_FILE "${file}" holds a ${bits}-bit RSA key; RS256 needs at least ${MIN_MODULUS_BITS} bits`,
    );
  }
  return key;
}
