// Sign in with Apple's client secret (docs/sign-in-providers.md): not a fixed string but an ES256 JWT the
// service signs with the operator's key from Apple (OIDC_APPLE_PRIVATE_KEY_FILE, the .p8
// file), naming the team (iss), the client id in use (sub) and Apple (aud). Each is made for
// a short while and reused until close to its end.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { ConfigError } from '../config.ts';

const LIFETIME_S = 3600;
const RENEW_BEFORE_S = 600;

/** The .p8 key: PKCS#8 PEM of a P-256 key. Unreadable or another kind of key: a start-up error. */
export function loadAppleKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: readFileSync(file, 'utf8'), format: 'pem' });
  } catch {
    throw new ConfigError(`OIDC_APPLE_PRIVATE_KEY_FILE "${file}" does not hold an unencrypted private key in PEM (Apple's .p8 file)`);
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new ConfigError(
      `OIDC_APPLE_PRIVATE_KEY_FILE "${file}" must hold an EC P-256 key (Apple's .p8 file), not a ${key.asymmetricKeyType} key`,
    );
  }
  return key;
}

const made = new WeakMap<KeyObject, Map<string, { secret: string; expiresAt: number }>>();

/** The client secret for `clientId` (the Services ID on the web, the bundle id in an app); `audience`: Apple's issuer. */
export async function appleClientSecret(
  key: KeyObject,
  apple: { teamId: string; keyId: string },
  clientId: string,
  audience: string,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const cache = made.get(key) ?? new Map();
  made.set(key, cache);
  const kept = cache.get(clientId);
  if (kept && kept.expiresAt - RENEW_BEFORE_S > now) return kept.secret;
  const secret = await new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: apple.keyId })
    .setIssuer(apple.teamId)
    .setSubject(clientId)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + LIFETIME_S)
    .sign(key);
  cache.set(clientId, { secret, expiresAt: now + LIFETIME_S });
  return secret;
}
