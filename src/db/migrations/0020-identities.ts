import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// Signing in with another provider (docs/sign-in-providers.md). What belongs to an account hangs off it
// with ON DELETE CASCADE, so deleting the account removes it in the same statement.
// - identities: one (issuer, subject) each, at most one account per pair. `email` is what the
//   provider said at the last sign-in; `refresh_token` is Apple's, sealed (auth/secret-box.ts),
//   to revoke at the account's deletion; `mail_disabled` is set while Apple says its relay
//   address takes no mail.
// - identity_sessions: which sessions (tokens) an identity opened, so that the provider
//   withdrawing consent ends them.
// - oidc_flows: a web sign-in or link under way: its state, nonce and PKCE verifier, where
//   the web client wants to land, and (linking) the account. Minutes; deleted when used.
// - login_codes: what the callback hands the web client: a one-time code (its hash) for
//   POST /auth/login/code/, 60 s.
// - oidc_used_tokens: the ID tokens apps have signed in with (their hash), until they expire,
//   so that none is used twice.
// - mfa_challenges.identity_id: a sign-in through an identity that waits for its second step,
//   so that the session it ends in is the identity's too.
export function identitiesMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('identities'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('provider', 'varchar(30)', (c) => c.notNull())
        .addColumn('issuer', 'varchar(300)', (c) => c.notNull())
        .addColumn('subject', 'varchar(255)', (c) => c.notNull())
        .addColumn('email', 'varchar(254)')
        .addColumn('refresh_token', 'text')
        .addColumn('client_id', 'varchar(255)')
        .addColumn('mail_disabled', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addUniqueConstraint('identities_issuer_subject_key', ['issuer', 'subject'])
        .execute();
      await db.schema.createIndex('identities_account').on('identities').column('account_id').execute();

      await db.schema
        .createTable('identity_sessions')
        .addColumn('token_id', 'integer', (c) => c.primaryKey().references('auth_tokens.id').onDelete('cascade'))
        .addColumn('identity_id', 'integer', (c) => c.notNull().references('identities.id').onDelete('cascade'))
        .execute();
      await db.schema.createIndex('identity_sessions_identity').on('identity_sessions').column('identity_id').execute();

      await withId(db.schema.createTable('oidc_flows'), dialect)
        .addColumn('state', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('provider', 'varchar(30)', (c) => c.notNull())
        .addColumn('nonce', 'varchar(100)', (c) => c.notNull())
        .addColumn('code_verifier', 'varchar(200)', (c) => c.notNull())
        .addColumn('redirect', 'varchar(2000)', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oidc_flows_account').on('oidc_flows').column('account_id').execute();
      await db.schema.createIndex('oidc_flows_expires').on('oidc_flows').column('expires_at').execute();

      await withId(db.schema.createTable('login_codes'), dialect)
        .addColumn('code_hash', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('identity_id', 'integer', (c) => c.references('identities.id').onDelete('cascade'))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_codes_account').on('login_codes').column('account_id').execute();
      await db.schema.createIndex('login_codes_expires').on('login_codes').column('expires_at').execute();

      await withId(db.schema.createTable('oidc_used_tokens'), dialect)
        .addColumn('token_hash', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oidc_used_tokens_expires').on('oidc_used_tokens').column('expires_at').execute();

      await db.schema
        .alterTable('mfa_challenges')
        .addColumn('identity_id', 'integer', (c) => c.references('identities.id').onDelete('cascade'))
        .execute();
    },
  };
}
