// The passkeys table (docs/sign-in-providers.md); every query on an account's passkeys takes its account id.
import type { Kysely, Selectable } from 'kysely';
import type { Database, PasskeysTable } from '../../db/schema.ts';

/** A passkey as the table holds it. */
export type PasskeyRow = Selectable<PasskeysTable>;

const COLUMNS = [
  'id',
  'account_id',
  'credential_id',
  'public_key',
  'counter',
  'transports',
  'backed_up',
  'name',
  'created_at',
  'last_used_at',
] as const;

/** PostgreSQL's bigint arrives as a string: every row leaves here with numbers. */
function numeric(row: PasskeyRow): PasskeyRow {
  return {
    ...row,
    counter: Number(row.counter),
    created_at: Number(row.created_at),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

export async function listPasskeys(db: Kysely<Database>, accountId: number): Promise<PasskeyRow[]> {
  const rows = await db.selectFrom('passkeys').select(COLUMNS).where('account_id', '=', accountId).orderBy('id').execute();
  return rows.map(numeric);
}

export async function findPasskey(db: Kysely<Database>, accountId: number, id: number): Promise<PasskeyRow | undefined> {
  const row = await db.selectFrom('passkeys').select(COLUMNS).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row && numeric(row);
}

/** The passkey a sign-in names by its credential id, whoever owns it. */
export async function findPasskeyByCredential(db: Kysely<Database>, credentialId: string): Promise<PasskeyRow | undefined> {
  const row = await db.selectFrom('passkeys').select(COLUMNS).where('credential_id', '=', credentialId).executeTakeFirst();
  return row && numeric(row);
}

export async function credentialExists(db: Kysely<Database>, credentialId: string): Promise<boolean> {
  return (await db.selectFrom('passkeys').select('id').where('credential_id', '=', credentialId).executeTakeFirst()) !== undefined;
}

export async function insertPasskey(db: Kysely<Database>, values: Omit<PasskeyRow, 'id' | 'last_used_at'>): Promise<PasskeyRow> {
  const row = await db
    .insertInto('passkeys')
    .values({ ...values, last_used_at: null })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return numeric(row);
}

export async function renamePasskey(db: Kysely<Database>, accountId: number, id: number, name: string): Promise<boolean> {
  const result = await db.updateTable('passkeys').set({ name }).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deletePasskey(db: Kysely<Database>, accountId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('passkeys').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Records a sign-in with the passkey: its new counter, whether it is backed up, and when.
 * Only while the stored counter is still the one the answer was checked against, so two
 * sign-ins with one counter value (a clone racing the original) cannot both pass.
 */
export async function recordPasskeyUse(
  db: Kysely<Database>,
  passkey: { id: number; counter: number },
  use: { counter: number; backedUp: boolean; at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter: use.counter, backed_up: use.backedUp ? 1 : 0, last_used_at: use.at })
    .where('id', '=', passkey.id)
    .where('counter', '=', passkey.counter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
