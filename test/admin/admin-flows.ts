// Operators in tests: an account given the role as the command line gives it (the service
// call the CLI makes; test/admin/accounts-cli.test.ts runs the CLI itself), with TOTP on and
// signed in with it; the two-factor ways in an operator's session needs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { grantOperator } from '../../src/admin/admin-service.ts';
import { PUBLIC_URL, type TestServer } from '../helpers/server.ts';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.ts';
import { type MailedServer, PASSWORD, registerVerified, type RegisteredAccount, uniqueEmail } from '../accounts/account-flows.ts';
import { freshCode, turnOnTotp, type MfaEnrolment } from '../accounts/mfa-flows.ts';
import { tempDir } from '../helpers/temp-dir.ts';

export interface Operator extends RegisteredAccount {
  mfa: MfaEnrolment;
  /** The token of the password-only session the account had before TOTP was on. */
  passwordToken: string;
}

export const PASSKEY_SITE = { origin: PUBLIC_URL, rpId: new URL(PUBLIC_URL).hostname };

export async function makeOperator(server: TestServer, account: RegisteredAccount): Promise<void> {
  await grantOperator(server.server.ctx, { via: 'cli', user: 'test@localhost' }, account.id);
}

/** A verified account, made an operator, with TOTP on; `token` is a session signed in with the password and a TOTP code. */
export async function registerOperator(mailed: MailedServer): Promise<Operator> {
  const account = await registerVerified(mailed, uniqueEmail('operator'));
  await makeOperator(mailed.server, account);
  const mfa = await turnOnTotp(mailed.server, account);
  const token = await signInWithSecondStep(mailed.server, account.email, freshCode(mailed.server, mfa.secret));
  return { ...account, mfa, passwordToken: account.token, token };
}

/** Signs in with the password, then `code` (a TOTP or recovery code) at the second step: the session's token. */
export async function signInWithSecondStep(server: TestServer, email: string, code: string): Promise<string> {
  const first = await server.request('POST', '/auth/login/', { body: { username: email, password: PASSWORD } });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.body.mfa_required, true, first.text);
  const second = await server.request('POST', '/auth/login/mfa/', { body: { mfa_token: first.body.mfa_token, code } });
  assert.equal(second.status, 200, second.text);
  return second.body.token;
}

/** Adds a passkey on a fresh authenticator within the session of `token` (the password first, as the settings ask). */
export async function addPasskey(server: TestServer, token: string, password = PASSWORD): Promise<SoftwareAuthenticator> {
  const authenticator = new SoftwareAuthenticator(PASSKEY_SITE);
  const options = await server.request('POST', '/account/passkeys/options/', { token, body: { password } });
  assert.equal(options.status, 200, options.text);
  const added = await server.request('POST', '/account/passkeys/', {
    token,
    body: { name: 'Key', response: authenticator.create(options.body) },
  });
  assert.equal(added.status, 201, added.text);
  return authenticator;
}

/** Signs in with the authenticator's passkey: the session's token. */
export async function signInWithPasskey(server: TestServer, authenticator: SoftwareAuthenticator): Promise<string> {
  const options = await server.request('POST', '/auth/passkey/options/');
  assert.equal(options.status, 200, options.text);
  const signedIn = await server.request('POST', '/auth/passkey/', { body: { response: authenticator.get(options.body) } });
  assert.equal(signedIn.status, 200, signedIn.text);
  return signedIn.body.token;
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
    cwd: tempDir('accounts-cli-'),
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
