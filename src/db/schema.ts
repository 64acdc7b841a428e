// Table types for Kysely. Booleans are stored as 0/1 integers on both databases so that
// queries and indexes read the same on SQLite and PostgreSQL. Timestamps are epoch milliseconds.
import type { Generated } from 'kysely';
import type { Language } from '../i18n/languages.ts';
import type { SyncedType } from './synced-types.ts';

export type Flag = 0 | 1;

export interface AccountsTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  password_hash: string;
  created_at: number;
  /** The operator role (docs/operators.md): given and taken back from the command line only. */
  is_operator: Generated<Flag>;
  /** When an operator disabled the account; null: not disabled. */
  disabled_at: number | null;
  /** When a way in last issued the account a token; null: never since migration 0021. */
  last_sign_in_at: number | null;
  /** The language of the account's e-mails (docs/accounts.md#language); `en` for accounts older than migration 0033. */
  language: Generated<Language>;
}

export interface EmailAddressesTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  email_lower: string;
  verified: Flag;
  is_primary: Flag;
  verified_action: number;
  created_at: number;
  last_key_sent_at: number | null;
}

export interface AuthTokensTable {
  id: Generated<number>;
  account_id: number;
  token_hash: string;
  created_at: number;
  last_used_at: number;
  /** Where the session was created from (null for tokens issued before migration 0008). */
  user_agent: string | null;
  ip_address: string | null;
  /** How the session was opened (null for tokens issued before migration 0024: one factor). */
  sign_in_method: SignInMethod | null;
}

/**
 * How a session was opened: the password alone; the password, then a TOTP or recovery code;
 * a passkey with user verification (both factors at once); another provider, alone or then a
 * TOTP or recovery code; an e-mailed code.
 */
export type SignInMethod = 'password' | 'password+totp' | 'passkey' | 'provider' | 'provider+totp' | 'email_code' | 'email_code+totp';

export interface EmailVerificationKeysTable {
  id: Generated<number>;
  email_address_id: number;
  key_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface PasswordResetKeysTable {
  id: Generated<number>;
  account_id: number;
  email_address_id: number;
  key_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** What was sent: a key (verification, reset), a sign-in code, or an invitation to someone's data (docs/sharing.md). */
export type EmailSendKind = 'verification' | 'reset' | 'sign-in' | 'invitation';

/** What an e-mailed code does (docs/accounts.md#codes-by-e-mail). */
export type EmailCodeKind = 'verification' | 'reset' | 'sign-in';

export interface EmailCodesTable {
  id: Generated<number>;
  kind: EmailCodeKind;
  account_id: number;
  email_address_id: number;
  email_lower: string;
  /** HMAC-SHA-256 (hex) of the kind, the address and the code, under the server's email-code key. */
  code_hash: string;
  created_at: number;
  expires_at: number;
  failed_attempts: Generated<number>;
  used_at: number | null;
}

export interface EmailSendsTable {
  id: Generated<number>;
  email_lower: string;
  account_id: number;
  kind: EmailSendKind;
  created_at: number;
}

export type OutboxState = 'pending' | 'sent' | 'failed';

export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  state: OutboxState;
  attempts: number;
  next_attempt_at: number;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  /** Rows with the same key are delivered one at a time, in id order (null: no ordering). */
  ordering_key: string | null;
  /** The account whose data the message carries (null: none, or an account already deleted). */
  account_id: Generated<number | null>;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface TotpSecretsTable {
  account_id: number;
  /** Encrypted (auth/secret-box.ts), never stored in the clear. */
  secret: string;
  /** 0 while the secret waits for its first code (enrolment not confirmed). */
  enabled: Flag;
  /** The newest 30-second step whose code was accepted; older or equal steps are replays. */
  last_used_step: number | null;
  created_at: number;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  account_id: number;
  code_hash: string;
  used_at: number | null;
}

export interface MfaChallengesTable {
  id: Generated<number>;
  account_id: number;
  token_hash: string;
  failed_attempts: Generated<number>;
  expires_at: number;
  /** The identity a sign-in through another provider came by (docs/sign-in-providers.md); null for a password login. */
  identity_id: Generated<number | null>;
  /** `email_code` when the sign-in began with an e-mailed code (migration 0030); null for a password or a provider. */
  first_step: Generated<'email_code' | null>;
}

export interface RateCountersTable {
  /** What is counted, e.g. "login-account-ip:account:7\n203.0.113.7". */
  name: string;
  count: number;
  reset_at: number;
}

export interface AppUsersTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  quote: string | null;
  data_version: Generated<number>;
  created_at: number;
  /** What the app user holds as a whole, kept by triggers (migration 0013). */
  item_count: Generated<number>;
  entry_count: Generated<number>;
  media_bytes: Generated<number>;
}

export interface MediaResourcesTable {
  id: Generated<number>;
  account_id: number;
  app_user_id: number;
  name: string;
  storage_key: string;
  content_type: string;
  size: number;
  created_at: number;
  /** 1: shown only by image items in private profiles (kept by triggers, migration 0028). */
  in_private: Generated<Flag>;
}

export interface ProfilesTable {
  id: Generated<number>;
  account_id: number;
  app_user_id: number;
  name: string;
  is_default: Flag;
  /** Hidden from accessors without private access (docs/sharing.md). */
  is_private: Generated<Flag>;
}

/** An invitation to read (or write) one app user's data; bound to an account once accepted. */
export interface AccessorsTable {
  id: Generated<number>;
  app_user_id: number;
  owner_account_id: number;
  email: string;
  email_lower: string;
  user_with_access_id: number | null;
  can_write: Generated<Flag>;
  has_private_profile_access: Generated<Flag>;
  created_at: number;
  accepted_at: number | null;
  /** null: until revoked. Past it the accessor grants nothing (auth/grants.ts). */
  expires_at: number | null;
  /** When the expiry's e-mails were queued (sharing/share-expiry.ts); null: not yet, or re-granted since. */
  expiry_told_at: number | null;
  /** 1: sees only the profiles in accessor_profiles (and what the app user holds outside profiles). */
  profiles_chosen: Generated<Flag>;
}

export interface AccessorProfilesTable {
  accessor_id: number;
  profile_id: number;
}

/** A create performed under an Idempotency-Key (docs/offline-and-live.md), with its first answer. */
export interface IdempotencyKeysTable {
  account_id: number;
  key: string;
  fingerprint: string;
  created_at: number;
  status: number | null;
  body: string | null;
  location: string | null;
}

export interface TopicsTable {
  id: Generated<number>;
  account_id: number;
  profile_id: number;
  name: string;
  topic_type: number;
  /** Kept by triggers on items (migration 0006). */
  item_count: Generated<number>;
  /** The app user's data version when what the topic's rendering shows last changed (kept by triggers, migration 0034). */
  rendered_version: Generated<number>;
}

export interface ItemsTable {
  id: Generated<number>;
  account_id: number;
  topic_id: number;
  name: string;
  /** Its app user's data version when what the item shows last changed (migration 0043). */
  rendered_version: Generated<number>;
}

export interface ImageContentsTable {
  id: Generated<number>;
  account_id: number;
  item_id: number;
  description: string;
  image_resource_id: number | null;
  media_resource_id: number | null;
}

export interface ListContentsTable {
  id: Generated<number>;
  account_id: number;
  item_id: number;
}

export interface ListEntriesTable {
  id: Generated<number>;
  account_id: number;
  list_content_id: number;
  text: string;
}

export interface EmergencyItemsTable {
  id: Generated<number>;
  account_id: number;
  app_user_id: number;
  name: string;
  description: string;
  media_resource_id: number | null;
}

export interface EmergencyContactsTable {
  id: Generated<number>;
  account_id: number;
  app_user_id: number;
  name: string;
  relation: string;
  phone_number: string;
  alt_phone_number: string;
  email: string;
}

/** A public link to an app user's emergency items and contacts (docs/emergency-links.md). */
export interface EmergencyLinksTable {
  id: Generated<number>;
  account_id: number;
  app_user_id: number;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  label: Generated<string>;
  /** argon2id of the PIN; null: no PIN. */
  pin_hash: string | null;
  /** Too many wrong PINs: the link answers 429 until then. */
  pin_locked_until: number | null;
  /** Lock-outs in a row (no right PIN, no new PIN since): each lasts longer; enough of them and the link takes no PIN. */
  pin_lockouts: Generated<number>;
  created_at: number;
  /** null: never expires. */
  expires_at: number | null;
  /** When its expiry was recorded in the activity log (emergency/link-expiry.ts); null: not yet, or given a later one since. */
  expiry_recorded_at: number | null;
  view_count: Generated<number>;
  last_viewed_at: number | null;
  /** When the owner was last e-mailed about a view (at most once an hour). */
  notified_at: number | null;
  /** 1: shows only the emergency items in `emergency_link_items`; 0: every one. */
  items_chosen: Generated<Flag>;
  /** 1: shows only the emergency contacts in `emergency_link_contacts`; 0: every one. */
  contacts_chosen: Generated<Flag>;
}

/** An emergency item a link that chose its items shows (cascades from either). */
export interface EmergencyLinkItemsTable {
  link_id: number;
  emergency_item_id: number;
}

/** An emergency contact a link that chose its contacts shows (cascades from either). */
export interface EmergencyLinkContactsTable {
  link_id: number;
  emergency_contact_id: number;
}

/** One opening of an emergency link, kept 90 days. */
export interface EmergencyLinkViewsTable {
  id: Generated<number>;
  link_id: number;
  account_id: number;
  viewed_at: number;
  ip_address: string | null;
  user_agent: string | null;
}

/** A WebAuthn credential of an account (docs/sign-in-providers.md); ids and keys as base64url text. */
export interface PasskeysTable {
  id: Generated<number>;
  account_id: number;
  credential_id: string;
  public_key: string;
  counter: number;
  /** The browser's transport hints, comma-separated. */
  transports: string;
  backed_up: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn ceremony's challenge: short-lived, deleted when used. */
export interface WebauthnChallengesTable {
  id: Generated<number>;
  challenge: string;
  purpose: 'registration' | 'authentication';
  /** The account registering a passkey; null for a sign-in. */
  account_id: number | null;
  expires_at: number;
}

/** One change to something an app user holds (docs/offline-and-live.md), written by triggers (migration 0019). */
export interface ChangesTable {
  id: Generated<number>;
  app_user_id: number;
  account_id: number;
  type: SyncedType;
  object_id: number;
  op: 'upsert' | 'delete';
  /** A tombstone's profile (for what sits under one). */
  profile_id: number | null;
  /** A tombstone: whether its profile was private then; a profile's upsert: whether it was hidden just before (private, or new). */
  in_private: Flag | null;
  created_at: number;
}

/** The highest change id the retention sweep has deleted. */
export interface ChangesHorizonTable {
  id: number;
  swept_through: number;
}

export type AuditVia = 'api' | 'cli';

/** One operator action (docs/operators.md), kept a year. */
export interface OperatorAuditTable {
  id: Generated<number>;
  at: number;
  via: AuditVia;
  /** The operator who acted through the API; null from the command line. */
  operator_account_id: number | null;
  action: string;
  account_id: number | null;
  reason: string | null;
  /** A find's search text (null: every other action, or a find without text). */
  search: string | null;
  /** Who ran a command-line action, `user@host` (null: through the API, or recorded before migration 0024). */
  cli_user: string | null;
}

/** An account's identity at another provider (docs/sign-in-providers.md): one per (issuer, subject). */
export interface IdentitiesTable {
  id: Generated<number>;
  account_id: number;
  /** The configured provider's name (OIDC_PROVIDERS). */
  provider: string;
  issuer: string;
  subject: string;
  email: string | null;
  /** Apple's refresh token, sealed; revoked at the account's deletion. */
  refresh_token: string | null;
  /** The client id the refresh token was issued to (the web's Services ID or an app's bundle id). */
  client_id: string | null;
  /** Apple said mail to this relay address is off. */
  mail_disabled: number;
  created_at: number;
  last_used_at: number | null;
}

/** The sessions an identity opened. */
export interface IdentitySessionsTable {
  token_id: number;
  identity_id: number;
}

/** A web sign-in (or link, with the account) waiting for the provider's answer. */
export interface OidcFlowsTable {
  id: Generated<number>;
  state: string;
  provider: string;
  nonce: string;
  code_verifier: string;
  redirect: string;
  account_id: number | null;
  /** The hash of the starting browser's cookie (null: started before it was kept, never taken). */
  browser_hash: string | null;
  expires_at: number;
}

/** A one-time login code handed to the web client (its hash). */
export interface LoginCodesTable {
  id: Generated<number>;
  code_hash: string;
  account_id: number;
  identity_id: number | null;
  /** The hash of the cookie of the browser whose flow made it. */
  browser_hash: string | null;
  expires_at: number;
}

/** An ID token an app signed in with (its hash), kept until it expires. */
export interface OidcUsedTokensTable {
  id: Generated<number>;
  token_hash: string;
  expires_at: number;
}

/** One event of an owner's activity log (app_user_id set) or of an account's security log (null): docs/activity.md. */
export interface ActivityEventsTable {
  id: Generated<number>;
  account_id: number;
  app_user_id: number | null;
  at: number;
  /** 'owner', 'accessor', 'emergency_link', 'operator', 'account'; null: the service itself. */
  actor_kind: string | null;
  actor_id: number | null;
  actor_name: string | null;
  action: string;
  object_type: string | null;
  object_id: number | null;
  object_name: string | null;
  /** 'api', 'web', 'cli'; null: the service itself. */
  via: string | null;
  /** A sign-in's session, as it was opened. */
  ip_address: string | null;
  user_agent: string | null;
  /** An accessor's read: the hour it falls in (unique with the app user and the reader). */
  read_hour: number | null;
  /** An accessor's write to a topic, item or list entry: what holds it (profile, topic, item), its id and name then. */
  parent_id: number | null;
  parent_name: string | null;
  /** The owner's change of an accessor or an emergency link: what it changed, as JSON (ActivityChanges). */
  changes: string | null;
}

/** An operator's webhook endpoint (docs/webhooks.md). Secrets are sealed (SecretBox, context "webhook-secret"). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  url: string;
  /** JSON array of event types, or ["*"]. */
  events: string;
  description: string;
  enabled: 0 | 1;
  secret: string;
  /** The secret before the last rotation, signing beside the new one until it expires. */
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  created_at: number;
  last_success_at: number | null;
  last_failure_at: number | null;
  /** The first failed attempt since the last success (null: not failing). */
  failing_since: number | null;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

/** One event for one endpoint: a queue row the webhook worker delivers. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: string;
  type: string;
  payload: string;
  /** The account the event is about (null: a test event); orders its events per endpoint. */
  account_id: number | null;
  state: WebhookDeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: number;
  locked_until: number | null;
  created_at: number;
  /** Failed attempts are retried until then (3 days from creation, or from an operator's retry). */
  retry_until: number;
  delivered_at: number | null;
}

export interface Database {
  activity_events: ActivityEventsTable;
  app_users: AppUsersTable;
  media_resources: MediaResourcesTable;
  profiles: ProfilesTable;
  accessors: AccessorsTable;
  accessor_profiles: AccessorProfilesTable;
  idempotency_keys: IdempotencyKeysTable;
  topics: TopicsTable;
  items: ItemsTable;
  image_contents: ImageContentsTable;
  list_contents: ListContentsTable;
  list_entries: ListEntriesTable;
  emergency_items: EmergencyItemsTable;
  emergency_contacts: EmergencyContactsTable;
  emergency_links: EmergencyLinksTable;
  emergency_link_views: EmergencyLinkViewsTable;
  emergency_link_items: EmergencyLinkItemsTable;
  emergency_link_contacts: EmergencyLinkContactsTable;
  accounts: AccountsTable;
  email_addresses: EmailAddressesTable;
  auth_tokens: AuthTokensTable;
  email_verification_keys: EmailVerificationKeysTable;
  password_reset_keys: PasswordResetKeysTable;
  email_codes: EmailCodesTable;
  email_sends: EmailSendsTable;
  outbox: OutboxTable;
  server_secrets: ServerSecretsTable;
  totp_secrets: TotpSecretsTable;
  recovery_codes: RecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  rate_counters: RateCountersTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  changes: ChangesTable;
  changes_horizon: ChangesHorizonTable;
  operator_audit: OperatorAuditTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  identities: IdentitiesTable;
  identity_sessions: IdentitySessionsTable;
  oidc_flows: OidcFlowsTable;
  login_codes: LoginCodesTable;
  oidc_used_tokens: OidcUsedTokensTable;
}
