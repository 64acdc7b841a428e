// Fixtures: a verified account with a token, written straight into the service's database
// through the data factories (the same rows registration + verification + login would write). Tests of the account
// flows themselves go through the HTTP API instead.
import { hashPassword } from '../../src/auth/passwords.ts';
import { verifiedAccount } from './factories.ts';
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
  const password = 'correct horse battery staple';
  cachedHash ??= { password, hash: await hashPassword(password) };
  const firstName = options.firstName ?? 'Ada';
  const account = await verifiedAccount(server.server.ctx.db.kysely, {
    email: options.email,
    firstName,
    lastName: options.lastName,
    passwordHash: cachedHash.hash,
    now: server.clock.now(),
  });
  return { ...account, password, firstName };
}
