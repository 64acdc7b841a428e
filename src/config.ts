// Configuration: every environment variable, validated once at start-up into one typed object.
// Each concern of src/config/ declares its variables (name, default, parser, one line of what it
// is for) and reads them into its part of Config; loadConfig puts the parts together. Every bad
// value is collected and one ConfigError names them all (so an operator fixes .env once, not once
// per variable); main.ts prints them and exits.
import { existsSync } from 'node:fs';
import { ACCOUNTS, type AccountsConfig, loadAccounts } from './config/accounts.ts';
import { BACKUPS, type BackupsConfig, loadBackups } from './config/backups.ts';
import { CAPACITY, type CapacityConfig, loadCapacity } from './config/capacity.ts';
import { DATABASE, DATABASE_POOL, type DatabaseConfig, loadDatabase } from './config/database.ts';
import { HTTP, type HttpConfig, loadHttp } from './config/http.ts';
import { LANGUAGES, type LanguagesConfig, loadLanguages } from './config/languages.ts';
import { loadMail, MAIL, type MailConfig } from './config/mail.ts';
import { loadMailchimp, MAILCHIMP, type MailchimpConfig } from './config/mailchimp.ts';
import { loadMedia, MEDIA, type MediaConfig } from './config/media.ts';
import { loadMessaging, MESSAGING, type MessagingConfig } from './config/messaging.ts';
import { loadObservability, OBSERVABILITY, type ObservabilityConfig } from './config/observability.ts';
import { loadOfflineAndLive, OFFLINE_AND_LIVE, type OfflineAndLiveConfig } from './config/offline-and-live.ts';
import { loadOutbox, OUTBOX, type OutboxConfig } from './config/outbox.ts';
import { loadPasskeys, PASSKEYS, type PasskeysConfig } from './config/passkeys.ts';
import { loadQuotas, QUOTAS, type QuotasConfig } from './config/quotas.ts';
import { loadRateLimits, RATE_LIMITS, type RateLimitsConfig } from './config/rate-limits.ts';
import { S3 } from './config/s3.ts';
import { loadSignInProviders, SIGN_IN_PROVIDERS, type SignInProvidersConfig } from './config/sign-in-providers.ts';
import { ConfigError, type Env, Settings, type Variable } from './config/variable.ts';

export { BACKUP_KEY_MISSING, type BackupLocation, parseBackupLocation } from './config/backups.ts';
export { parseDuration, parseRateLimit, parseSize, type RateLimit } from './config/parsers.ts';
export type { S3Settings } from './config/s3.ts';
export type { OidcProviderConfig } from './config/sign-in-providers.ts';
export { ConfigError } from './config/variable.ts';

export interface Config
  extends HttpConfig,
    DatabaseConfig,
    MailConfig,
    MediaConfig,
    BackupsConfig,
    AccountsConfig,
    LanguagesConfig,
    PasskeysConfig,
    SignInProvidersConfig,
    RateLimitsConfig,
    QuotasConfig,
    OfflineAndLiveConfig,
    OutboxConfig,
    MessagingConfig,
    MailchimpConfig,
    ObservabilityConfig,
    CapacityConfig {}

/** Every variable the service reads, by concern (the S3 settings serve media and backups alike). */
export const VARIABLES: Record<string, Variable<unknown>[]> = Object.fromEntries(
  Object.entries({
    http: HTTP,
    database: { ...DATABASE, ...DATABASE_POOL },
    mail: MAIL,
    media: MEDIA,
    s3: S3,
    backups: BACKUPS,
    accounts: ACCOUNTS,
    languages: LANGUAGES,
    passkeys: PASSKEYS,
    signInProviders: SIGN_IN_PROVIDERS,
    rateLimits: RATE_LIMITS,
    quotas: QUOTAS,
    offlineAndLive: OFFLINE_AND_LIVE,
    outbox: OUTBOX,
    messaging: MESSAGING,
    mailchimp: MAILCHIMP,
    observability: OBSERVABILITY,
    capacity: CAPACITY,
  }).map(([concern, variables]) => [concern, Object.values(variables)]),
);

export function loadConfig(env: Env = process.env): Config {
  const settings = new Settings(env);
  const http = loadHttp(settings);
  const config: Config = {
    ...http,
    ...loadDatabase(settings),
    ...loadMail(settings, http.publicUrl),
    ...loadMedia(settings),
    ...loadBackups(settings),
    ...loadAccounts(settings),
    ...loadLanguages(settings),
    ...loadPasskeys(settings, http.publicUrl),
    ...loadSignInProviders(settings),
    ...loadRateLimits(settings),
    ...loadQuotas(settings),
    ...loadOfflineAndLive(settings),
    ...loadOutbox(settings),
    ...loadMessaging(settings),
    ...loadMailchimp(settings),
    ...loadObservability(settings, http.port),
    ...loadCapacity(settings),
  };
  if (settings.problems.length > 0) throw new ConfigError(settings.problems);
  return config;
}

/** Reads `.env` into process.env (variables already set win), when the file exists. */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}

/** For the service and its commands: `.env`, then the configuration, or a clear message and exit status 2. */
export function loadConfigOrExit(): Config {
  loadDotEnv();
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) console.error(`Configuration error: ${problem}`);
    process.exit(2);
  }
}
