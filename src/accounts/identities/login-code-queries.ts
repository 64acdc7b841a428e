// One-time login codes (docs/sign-in-providers.md): what the web flow's callback hands the web client, to
// exchange at POST /auth/login/code/ within 60 s, once, from the browser that started the
// flow. Stored as their hash.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const LOGIN_CODE_TTL_MS = 60_000;

export async function insertLoginCode(
  db: Kysely<Database>,
  values: { codeHash: string; accountId: number; identityId: number; browserHash: string; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('login_codes')
    .values({
      code_hash: values.codeHash,
      account_id: values.accountId,
      identity_id: values.identityId,
      browser_hash: values.browserHash,
      expires_at: values.expiresAt,
    })
    .execute();
}

/**
 * Deletes the code and returns whose it was, when it is unexpired at `now` and sent by the
 * browser its flow belonged to (the hash of its cookie); of two requests with one code, one gets it.
 */
export async function spendLoginCode(
  db: Kysely<Database>,
  codeHash: string,
  browserHash: string,
  now: number,
): Promise<{ account_id: number; identity_id: number | null } | undefined> {
  return db
    .deleteFrom('login_codes')
    .where('code_hash', '=', codeHash)
    .where('browser_hash', '=', browserHash)
    .where('expires_at', '>', now)
    .returning(['account_id', 'identity_id'])
    .executeTakeFirst();
}
