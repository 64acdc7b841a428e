// Messaging identity tokens: the provider, and the key they are signed with.
import { duration, text } from './parsers.ts';
import type { Settings, Variables } from './variable.ts';

export interface MessagingConfig {
  messaging: { providerId: string; keyId: string; privateKeyFile: string; tokenTtlSeconds: number } | undefined;
}

export const MESSAGING = {
  providerId: { name: 'MESSAGING_PROVIDER_ID', parser: text, doc: "the messaging provider's id; unset: no tokens" },
  keyId: { name: 'MESSAGING_KEY_ID', parser: text, doc: "the signing key's id" },
  privateKeyFile: { name: 'MESSAGING_PRIVATE_KEY_FILE', parser: text, doc: 'the signing key, a PEM file' },
  tokenTtl: { name: 'MESSAGING_TOKEN_TTL', default: '300', parser: duration, doc: "a token's lifetime, at least a second" },
} satisfies Variables;

/** The three identity variables go together: all or none. */
export function loadMessaging(settings: Settings): MessagingConfig {
  const together = [MESSAGING.providerId, MESSAGING.keyId, MESSAGING.privateKeyFile].map((variable) => variable.name);
  const set = together.filter((name) => settings.text(name) !== undefined);
  if (set.length === 0) return { messaging: undefined };
  if (set.length < together.length) {
    const missing = together.filter((name) => !set.includes(name));
    settings.problem(`messaging tokens need ${together.join(', ')} together; missing ${missing.join(', ')}`);
  }
  const tokenTtlSeconds = settings.read(MESSAGING.tokenTtl) / 1000;
  if (tokenTtlSeconds < 1) settings.problem('MESSAGING_TOKEN_TTL must be at least one second');
  return {
    messaging: {
      providerId: settings.read(MESSAGING.providerId) ?? '',
      keyId: settings.read(MESSAGING.keyId) ?? '',
      privateKeyFile: settings.read(MESSAGING.privateKeyFile) ?? '',
      tokenTtlSeconds,
    },
  };
}
