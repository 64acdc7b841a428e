// The identities table (docs/sign-in-providers.md) and the sessions identities opened; every query on an
// account's identities takes its account id, but the sign-in's, which finds the account.
import type { Kysely, Selectable } from 'kysely';
import type { Database, IdentitiesTable } from '../../db/schema.ts';

export type IdentityRow = Selectable<IdentitiesTable>;

const COLUMNS = [
  'id',
  'account_id',
  'provider',
  'issuer',
  'subject',
  'email',
  'refresh_token',
  'client_id',
  'mail_disabled',
  'created_at',
  'last_used_at',
] as const;

export const IDENTITY_INDEX = { name: 'identities_issuer_subject_key', columns: 'identities.issuer, identities.subject' };

/** PostgreSQL's bigint arrives as a string: every row leaves here with numbers. */
function numeric(row: IdentityRow): IdentityRow {
  return {
    ...row,
    created_at: Number(row.created_at),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
    mail_disabled: Number(row.mail_disabled),
  };
}

/** The identity of (issuer, subject), whoever's it is: a sign-in finds the account this way. */
export async function findIdentityBySubject(db: Kysely<Database>, issuer: string, subject: string): Promise<IdentityRow | undefined> {
  const row = await db
    .selectFrom('identities')
    .select(COLUMNS)
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row && numeric(row);
}

export async function listIdentities(db: Kysely<Database>, accountId: number): Promise<IdentityRow[]> {
  const rows = await db.selectFrom('identities').select(COLUMNS).where('account_id', '=', accountId).orderBy('id').execute();
  return rows.map(numeric);
}

export async function findIdentity(db: Kysely<Database>, accountId: number, id: number): Promise<IdentityRow | undefined> {
  const row = await db.selectFrom('identities').select(COLUMNS).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row && numeric(row);
}

export async function insertIdentity(
  db: Kysely<Database>,
  values: Omit<IdentityRow, 'id' | 'last_used_at' | 'mail_disabled'>,
): Promise<IdentityRow> {
  const row = await db
    .insertInto('identities')
    .values({ ...values, mail_disabled: 0, last_used_at: values.created_at })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return numeric(row);
}

/** A sign-in with the identity: when, the address the provider gave this time, and a new refresh token if one came. */
export async function recordIdentityUse(
  db: Kysely<Database>,
  accountId: number,
  id: number,
  use: { at: number; email: string | undefined; refreshToken?: { sealed: string; clientId: string } },
): Promise<void> {
  await db
    .updateTable('identities')
    .set({
      last_used_at: use.at,
      ...(use.email !== undefined && { email: use.email }),
      ...(use.refreshToken && { refresh_token: use.refreshToken.sealed, client_id: use.refreshToken.clientId }),
    })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function deleteIdentity(db: Kysely<Database>, accountId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('identities').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Remembers that the session with this token hash was opened by the identity. */
export async function recordIdentitySession(db: Kysely<Database>, identityId: number, tokenHash: string): Promise<void> {
  const token = await db.selectFrom('auth_tokens').select('id').where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!token) return;
  await db.insertInto('identity_sessions').values({ token_id: token.id, identity_id: identityId }).execute();
}

/** Ends the sessions the identity opened. */
export async function revokeIdentitySessions(db: Kysely<Database>, accountId: number, identityId: number): Promise<void> {
  await db
    .deleteFrom('auth_tokens')
    .where('account_id', '=', accountId)
    .where('id', 'in', (eb) => eb.selectFrom('identity_sessions').select('token_id').where('identity_id', '=', identityId))
    .execute();
}

/** Apple's relay address stopped or resumed taking mail. */
export async function setMailDisabled(db: Kysely<Database>, accountId: number, id: number, disabled: boolean): Promise<void> {
  await db
    .updateTable('identities')
    .set({ mail_disabled: disabled ? 1 : 0 })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}
