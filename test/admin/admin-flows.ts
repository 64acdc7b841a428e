// Operators in tests: an account given the role as the command line gives it (the service
// call the CLI makes; test/admin/accounts-cli.test.ts runs the CLI itself), with TOTP on.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

const CLI = fileURLToPath(new URL('../../src/cli/accounts.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run accounts -- <args>` as the operator would, in a directory without a .env file. */
export async function runAccountsCli(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], {
    cwd: mkdtempSync(join(tmpdir(), 'accounts-cli-')),
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill(), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}
