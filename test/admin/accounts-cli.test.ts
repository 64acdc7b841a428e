// `npm run accounts -- …` (docs/operators.md), run as the operator runs it: a child process on the
// service's database, while the service runs, each change recorded with via "cli".
import assert from 'node:assert/strict';
import { hostname, userInfo } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { ACCOUNT_DISABLED as ACCOUNT_DISABLED_KEY } from '../../src/accounts/sessions/sign-in-token.ts';
import { PASSWORD, registerVerified, startMailedServer, uniqueEmail, waitForMail, type MailedServer } from '../accounts/account-flows.ts';
import { freshCode, turnOnTotp } from '../accounts/mfa-flows.ts';
import { runAccountsCli as runCli, signInWithSecondStep } from './admin-flows.ts';
import { english } from '../helpers/english.ts';

const ACCOUNT_DISABLED = english(ACCOUNT_DISABLED_KEY);

describe('accounts CLI', () => {
  let mailed: MailedServer;
  let databaseUrl: string;
  before(async () => {
    mailed = await startMailedServer();
    databaseUrl = mailed.server.server.ctx.config.databaseUrl;
  });
  after(() => mailed.close());

  const cli = (...args: string[]) => runCli(databaseUrl, ...args);
  /** The CLI queues its e-mails on the real clock; the test server's stands where the test left it. */
  const catchUpWithCli = () => mailed.server.clock.advance(Math.max(0, Date.now() - mailed.server.clock.now()) + 1_000);
  const logIn = (email: string) => mailed.server.request('POST', '/auth/login/', { body: { username: email, password: PASSWORD } });
  /** Who the CLI records as having run it: this test's OS user, on this host. */
  const cliUser = `${userInfo().username}@${hostname()}`;
  const audit = () => mailed.server.server.ctx.db.kysely.selectFrom('operator_audit').selectAll().orderBy('id', 'desc').execute();

  test('grant-operator by address gives the role the API then honours; revoke-operator takes it back', async () => {
    const registered = await registerVerified(mailed, uniqueEmail('cli-operator'));
    const { secret } = await turnOnTotp(mailed.server, registered);
    const account = { ...registered, token: await signInWithSecondStep(mailed.server, registered.email, freshCode(mailed.server, secret)) };
    assert.equal((await mailed.server.request('GET', '/admin/audit/', { token: account.token })).status, 404);
    const granted = await cli('grant-operator', account.email.toUpperCase(), '--reason', 'New on-call operator');
    assert.equal(granted.code, 0, granted.stderr);
    assert.match(granted.stdout, new RegExp(`Account ${account.id} is an operator now`));
    const seen = await mailed.server.request('GET', '/admin/audit/', { token: account.token });
    assert.equal(seen.status, 200, seen.text);
    assert.deepEqual(
      { ...seen.body[0], id: 0, at: '' },
      {
        id: 0,
        at: '',
        via: 'cli',
        operator: null,
        action: 'grant-operator',
        account_id: account.id,
        reason: 'New on-call operator',
        search: null,
        cli_user: cliUser,
      },
    );
    const revoked = await cli('revoke-operator', String(account.id));
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await mailed.server.request('GET', '/admin/audit/', { token: account.token })).status, 404);
  });

  test('find, disable (the running service refuses the token at once), enable, sessions-end, mfa-off, resend, delete', async () => {
    const account = await registerVerified(mailed, uniqueEmail('cli-target'));
    const found = await cli('find', account.email.slice(0, 14), '--json');
    assert.equal(found.code, 0, found.stderr);
    const rows = JSON.parse(found.stdout);
    assert.deepEqual(
      rows.map((r: { id: number }) => r.id),
      [account.id],
    );
    const table = await cli('find', account.email);
    assert.match(table.stdout, /ID\s+EMAIL/);
    assert.match(table.stdout, new RegExp(account.email));
    const finds = (await audit()).slice(0, 2);
    assert.deepEqual(
      finds.map((r) => [r.action, r.account_id, r.search, r.via, r.cli_user]),
      [
        ['find', null, account.email, 'cli', cliUser],
        ['find', null, account.email.slice(0, 14), 'cli', cliUser],
      ],
      'each find is recorded with its text and who ran it',
    );

    const disabled = await cli('disable', account.email, '--reason', 'Abuse report 12');
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal((await mailed.server.request('GET', '/account/profile/', { token: account.token })).status, 401);
    assert.deepEqual((await logIn(account.email)).body, { non_field_errors: [ACCOUNT_DISABLED] });
    const enabled = await cli('enable', account.email);
    assert.equal(enabled.code, 0, enabled.stderr);
    const token = (await logIn(account.email)).body.token as string;
    assert.ok(token);

    assert.equal((await cli('sessions-end', String(account.id))).code, 0);
    assert.equal((await mailed.server.request('GET', '/account/profile/', { token })).status, 401);

    const noFactor = await cli('mfa-off', account.email);
    assert.equal(noFactor.code, 1);
    assert.match(noFactor.stderr, /no second factor/);
    const again = { ...account, token: (await logIn(account.email)).body.token as string };
    await turnOnTotp(mailed.server, again);
    const off = await cli('mfa-off', account.email, '--reason', 'Lost phone');
    assert.equal(off.code, 0, off.stderr);
    catchUpWithCli();
    await waitForMail(mailed.sink, account.email, 'Two-step sign-in was turned off by the service');
    assert.ok((await logIn(account.email)).body.token, 'the password alone signs in');

    const resend = await cli('resend', account.email);
    assert.equal(resend.code, 1, 'every address is verified');

    const deleted = await cli('delete', account.email, '--reason', 'Asked by letter');
    assert.equal(deleted.code, 0, deleted.stderr);
    catchUpWithCli();
    await waitForMail(mailed.sink, account.email, 'Your account has been deleted');
    assert.equal((await logIn(account.email)).status, 400);

    const records = (await audit()).filter((r) => r.account_id === account.id);
    assert.deepEqual(
      records.map((r) => r.action),
      ['delete', 'mfa-off', 'sessions-end', 'enable', 'disable'],
    );
    assert.ok(records.every((r) => r.via === 'cli' && r.operator_account_id === null && r.cli_user === cliUser));
    assert.equal(records[0]!.reason, 'Asked by letter');

    // The audit from the command line: the same records, newest first, as JSON and as a table.
    const listed = await cli('audit', '--limit', '3', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    const newest = (await audit()).slice(0, 3);
    assert.deepEqual(
      JSON.parse(listed.stdout).map((r: { id: number; action: string; cli_user: string }) => [r.id, r.action, r.cli_user]),
      newest.map((r) => [r.id, r.action, r.cli_user]),
    );
    const auditTable = (await cli('audit')).stdout.split('\n');
    assert.match(auditTable[0]!, /^AT \(UTC\)\s+ACTION\s+ACCOUNT\s+BY\s+REASON OR SEARCH$/);
    assert.match(auditTable[1]!, new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+delete\\s+${account.id}\\s+`));
    assert.ok(auditTable[1]!.includes(`cli ${cliUser}`) && auditTable[1]!.endsWith('Asked by letter'), auditTable[1]);
  });

  test('bad usage exits 2 with the usage; an unknown account exits 1 with one line', async () => {
    const bad = [
      ['frobnicate', 'x'],
      ['disable'],
      ['disable', 'a', 'b'],
      ['disable', 'a', '--nope'],
      ['audit', 'x'],
      ['audit', '--limit', '0'],
    ];
    for (const args of [[], ...bad, ['audit', '--limit', 'many'], ['find', 'x', '--limit', '3']]) {
      const result = await cli(...args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stdout + result.stderr, /Usage:/);
    }
    const unknown = await cli('disable', 'nobody-here@example.com');
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr.trim(), 'No account has the address "nobody-here@example.com".');
    assert.equal((await cli('enable', '99999999')).code, 1);
    const help = await cli('--help');
    assert.equal(help.code, 0);
  });
});
