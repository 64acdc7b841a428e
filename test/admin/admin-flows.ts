// Operators in tests: an account given the role as the command line gives it (the service
// call the CLI makes; test/admin/accounts-cli.test.ts runs the CLI itself), with TOTP on.
import { grantOperator } from '../../src/admin/admin-service.ts';
import type { TestServer } from '../helpers/server.ts';
import { type MailedServer, registerVerified, type RegisteredAccount, uniqueEmail } from '../accounts/account-flows.ts';
import { turnOnTotp, type MfaEnrolment } from '../accounts/mfa-flows.ts';

export interface Operator extends RegisteredAccount {
  mfa: MfaEnrolment;
}

export async function makeOperator(server: TestServer, account: RegisteredAccount): Promise<void> {
  await grantOperator(server.server.ctx, { via: 'cli' }, account.id);
}

/** A verified account, made an operator, with TOTP on. */
export async function registerOperator(mailed: MailedServer): Promise<Operator> {
  const account = await registerVerified(mailed, uniqueEmail('operator'));
  await makeOperator(mailed.server, account);
  return { ...account, mfa: await turnOnTotp(mailed.server, account) };
}

/** What an account answer of the operators' API may hold: nothing else, and never personal data. */
export const ACCOUNT_FIELDS = [
  'created_at',
  'disabled',
  'email',
  'first_name',
  'id',
  'is_operator',
  'last_name',
  'last_sign_in_at',
  'second_factor',
  'sessions',
];
