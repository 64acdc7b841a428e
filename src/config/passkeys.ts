// Passkeys (docs/passkeys.md): the relying party, and the origins a passkey may be used from.
import { text } from './parsers.ts';
import { ConfigError, type Settings, type Variables } from './variable.ts';

export interface PasskeysConfig {
  /** Passkeys (docs/sign-in-providers.md): the relying party's id and name, and the origins a passkey may be used from. */
  webauthn: { rpId: string; rpName: string; origins: string[] };
}

export const PASSKEYS = {
  rpId: { name: 'WEBAUTHN_RP_ID', parser: text, doc: "the relying party's id, a host name; unset: PUBLIC_URL's" },
  origins: {
    name: 'WEBAUTHN_ORIGINS',
    parser: text,
    doc: 'web origins at or below the RP id, or android:apk-key-hash:<hash>, comma-separated; unset: PUBLIC_URL',
  },
  rpName: { name: 'WEBAUTHN_RP_NAME', default: 'Profile Service', parser: text, doc: 'the name authenticators show beside a passkey' },
} satisfies Variables;

/**
 * WEBAUTHN_RP_ID (a host name: PUBLIC_URL's by default) and WEBAUTHN_ORIGINS (PUBLIC_URL by
 * default): web origins whose host is the RP id or below it, or Android apps' signing-key
 * origins (`android:apk-key-hash:<base64url SHA-256>`).
 */
function webauthn(settings: Settings, publicUrl: string): PasskeysConfig['webauthn'] {
  const rpIdValue = settings.text(PASSKEYS.rpId.name);
  const rpId = (rpIdValue ?? new URL(publicUrl).hostname).toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(rpId) || rpId.startsWith('.') || rpId.endsWith('.')) {
    throw new ConfigError(`WEBAUTHN_RP_ID must be a host name like "example.com" (no scheme, port or path); got "${rpIdValue}"`);
  }
  const origins = settings
    .value(PASSKEYS.origins, publicUrl)!
    .split(',')
    .map((text) => {
      const origin = text.trim().replace(/\/+$/, '');
      if (/^android:apk-key-hash:[A-Za-z0-9_-]+$/.test(origin)) return origin;
      let url: URL | undefined;
      try {
        url = new URL(origin);
      } catch {}
      if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== origin) {
        throw new ConfigError(
          `WEBAUTHN_ORIGINS must be origins like "https://app.example.com" or "android:apk-key-hash:<hash>", comma-separated; got "${text.trim()}"`,
        );
      }
      if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`)) {
        throw new ConfigError(`WEBAUTHN_ORIGINS: the host of "${origin}" is not WEBAUTHN_RP_ID ("${rpId}") or below it`);
      }
      return origin;
    });
  return { rpId, rpName: settings.read(PASSKEYS.rpName), origins };
}

export function loadPasskeys(settings: Settings, publicUrl: string): PasskeysConfig {
  return { webauthn: settings.check(() => webauthn(settings, publicUrl), { rpId: '', rpName: '', origins: [] }) };
}
