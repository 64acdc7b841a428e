// Fixtures: a verified account with a token, written straight into the service's database
// (the same rows registration + verification + login would write). Tests of the account
// flows themselves go through the HTTP API instead.
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../src/auth/passwords.ts';
import { issueToken } from '../../src/auth/token-queries.ts';
import type { TestServer } from './server.ts';

export interface TestAccount {
  id: number;
  email: string;
  password: string;
  firstName: string;
  token: string;
}

let cachedHash: { password: string; hash: string } | undefined;

export async function createAccount(
  server: TestServer,
  options: { email?: string; firstName?: string; lastName?: string } = {},
): Promise<TestAccount> {
  const db = server.server.ctx.db.kysely;
  const now = server.clock.now();
  const email = options.email ?? `user-${randomBytes(6).toString('hex')}@example.com`;
  const password = 'correct horse battery staple';
  cachedHash ??= { password, hash: await hashPassword(password) };
  const firstName = options.firstName ?? 'Ada';
  const account = await db
    .insertInto('accounts')
    .values({ first_name: firstName, last_name: options.lastName ?? 'Lovelace', password_hash: cachedHash.hash, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('email_addresses')
    .values({
      account_id: account.id,
      email,
      email_lower: email.toLowerCase(),
      verified: 1,
      is_primary: 1,
      verified_action: 1,
      created_at: now,
      last_key_sent_at: null,
    })
    .execute();
  const token = await issueToken(db, account.id, now);
  return { id: account.id, email, password, firstName, token };
}
