// Server-side secrets kept in the database, made on first start, so every instance sharing
// the database signs and checks alike without any configuration.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export async function findSecret(db: Kysely<Database>, name: string): Promise<Buffer | undefined> {
  const existing = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
  return existing ? Buffer.from(existing.value, 'base64') : undefined;
}

export async function getOrCreateSecret(db: Kysely<Database>, name: string): Promise<Buffer> {
  const existing = await findSecret(db, name);
  if (existing) return existing;
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  // Another instance may have won the race: read back whichever value was stored.
  const stored = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(stored.value, 'base64');
}
