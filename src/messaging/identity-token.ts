// Messaging identity tokens (docs/messaging-and-sync.md, v1 wire format): an RS256 JWT the messaging
// provider checks with our public key. The nonce comes from the provider and is signed back
// as given; the provider, not we, decides whether it is valid.
import type { KeyObject } from 'node:crypto';
import type { Config } from '../config.ts';

export const IDENTITY_TOKEN_CONTENT_TYPE = 'layer-eit;v=1';

export interface IdentityTokenRequest {
  accountId: number;
  nonce: string;
  /** Epoch milliseconds. */
  now: number;
}

export async function issueIdentityToken(
  settings: NonNullable<Config['messaging']>,
  key: KeyObject,
  request: IdentityTokenRequest,
): Promise<string> {
  // Loaded on first use: most requests never need it.
  const { SignJWT } = await import('jose');
  const issuedAt = Math.floor(request.now / 1000);
  // `prn` (principal) is the provider's name for the subject; `nce` carries its nonce.
  return (
    new SignJWT({ prn: String(request.accountId), nce: request.nonce })
      .setProtectedHeader({ typ: 'JWT', alg: 'RS256', cty: IDENTITY_TOKEN_CONTENT_TYPE, kid: settings.keyId })
      .setIssuer(settings.providerId)
      .setIssuedAt(issuedAt)
      // JWT times are whole seconds; a TTL given as e.g. "1500ms" is rounded down.
      .setExpirationTime(issuedAt + Math.floor(settings.tokenTtlSeconds))
      .sign(key)
  );
}
