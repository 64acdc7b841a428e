import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { withId } from './helpers.ts';

// Outgoing events (docs/webhooks.md).
// - webhook_endpoints: where operators have events sent. The signing secret is kept sealed
//   (the MFA key's SecretBox) so it can sign; after a rotation the previous one keeps signing
//   beside it until `previous_secret_expires_at` (24 hours). `failing_since`: the first failed
//   attempt since the last success (null: not failing); five days of it disable the endpoint.
// - webhook_deliveries: one row per event and endpoint, written in the transaction of the
//   account's change, delivered by the webhook worker (a queue like the outbox: a lease, claims
//   with SKIP LOCKED). `account_id` orders one account's events per endpoint; no foreign key,
//   so `account.deleted` outlives the account. Retried until `retry_until` (3 days from its
//   creation, or from an operator's retry). Kept 30 days (the sweeper).
export function webhooksMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('webhook_endpoints'), dialect)
        .addColumn('url', 'varchar(2000)', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('description', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'smallint', (c) => c.notNull().defaultTo(1))
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_expires_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_success_at', 'bigint')
        .addColumn('last_failure_at', 'bigint')
        .addColumn('failing_since', 'bigint')
        .execute();

      await withId(db.schema.createTable('webhook_deliveries'), dialect)
        .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('account_id', 'integer')
        .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('retry_until', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .execute();
      // The worker's claim reads only pending rows in due order, and checks for an earlier
      // pending row of the same endpoint and account.
      await db.schema
        .createIndex('webhook_deliveries_pending_due')
        .on('webhook_deliveries')
        .columns(['next_attempt_at', 'id'])
        .where(sql.ref('state'), '=', 'pending')
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_pending_order')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'account_id', 'id'])
        .where(sql.ref('state'), '=', 'pending')
        .execute();
      await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
      await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').column('created_at').execute();
    },
  };
}
