// What every capability gets to work with: configuration, the database, the clock (tests
// move it), the outbox to queue mail and sync calls, and a logger.
import type { KeyObject } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { CounterStore } from './auth/counter-store.ts';
import type { OidcProviders } from './auth/oidc-relying-party.ts';
import type { SecretBox } from './auth/secret-box.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { MediaStorage } from './storage/media-storage.ts';
import type { Outbox } from './outbox/outbox.ts';

/** Reads of an in-memory cache: answered from it, or loaded. Plain numbers, so counting costs nothing. */
export interface CacheCounts {
  hits: number;
  misses: number;
}

export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  outbox: Outbox;
  log: FastifyBaseLogger;
  /** The abuse limits' counters: in memory for one SQLite instance, in the database where instances share them. */
  counters: CounterStore;
  /** The in-memory caches' hit and miss counts by cache name (whoever makes a cache adds it); GET /metrics reads them. */
  cacheCounts: Map<string, CacheCounts>;
  /** The OpenID providers people may sign in with (OIDC_PROVIDERS; docs/sign-in-providers.md). */
  oidc: OidcProviders;
  /** Where uploaded media files are stored (MEDIA_STORAGE). */
  media: MediaStorage;
  secrets: {
    /** Signs media file URLs (MEDIA_URL_SECRET, or a key made once and kept in the database). */
    mediaUrl: Buffer;
    /** Signs messaging identity tokens (MESSAGING_PRIVATE_KEY_FILE); undefined when messaging is off. */
    messagingKey: KeyObject | undefined;
    /** Seals TOTP secrets and Apple's refresh tokens (MFA_ENCRYPTION_KEY, or a key made once and kept in the database). */
    mfa: SecretBox;
    /** Keys the HMACs recovery codes are stored as (made once and kept in the database). */
    recoveryCodes: Buffer;
    /** Keys the HMACs e-mailed codes are stored as (made once and kept in the database). */
    emailCodes: Buffer;
    /** Seals the cursors of the change log and live streams (a key made once and kept in the database). */
    cursors: SecretBox;
  };
}
