// The operators' routes ask for two factors of the session a request comes with, not only of
// the account (docs/operators.md): a password-only session of an operator holding a passkey or
// TOTP is refused with 403, as is a session from before sign-in methods were recorded; a
// passkey sign-in, or the password and then a TOTP or recovery code, is let in. On a real
// server, SQLite or PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  SECOND_FACTOR_NEEDED as SECOND_FACTOR_NEEDED_KEY,
  SIGN_IN_WITH_SECOND_FACTOR as SIGN_IN_WITH_SECOND_FACTOR_KEY,
} from '../../src/admin/operator-gate.ts';
import { logIn, registerVerified, startMailedServer, uniqueEmail, type MailedServer } from '../accounts/account-flows.ts';
import { addPasskey, makeOperator, registerOperator, signInWithPasskey, signInWithSecondStep } from './admin-flows.ts';
import { english } from '../helpers/english.ts';

const SECOND_FACTOR_NEEDED = english(SECOND_FACTOR_NEEDED_KEY);
const SIGN_IN_WITH_SECOND_FACTOR = english(SIGN_IN_WITH_SECOND_FACTOR_KEY);

describe("operators' sessions: two factors at sign-in", () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  const audit = (token: string) => mailed.server.request('GET', '/admin/audit/', { token });
  const sessionMethods = async (token: string) => {
    const listed = await mailed.server.request('GET', '/auth/sessions/', { token });
    assert.equal(listed.status, 200, listed.text);
    return listed.body.map((s: { sign_in_method: string | null; current: boolean }) => [s.sign_in_method, s.current]);
  };

  test('a passkey added within a password session leaves that session refused; a password sign-in is refused; a passkey sign-in is let in', async () => {
    const account = await registerVerified(mailed, uniqueEmail('passkey-operator'));
    await makeOperator(mailed.server, account);
    const bare = await audit(account.token);
    assert.deepEqual([bare.status, bare.body], [403, { detail: SECOND_FACTOR_NEEDED }]);

    const authenticator = await addPasskey(mailed.server, account.token);
    const sameSession = await audit(account.token);
    assert.deepEqual([sameSession.status, sameSession.body], [403, { detail: SIGN_IN_WITH_SECOND_FACTOR }], 'the session it was added in');

    // An account with a passkey and no TOTP signs in with its password alone: one factor.
    const byPassword = await logIn(mailed.server, account.email);
    const refused = await audit(byPassword);
    assert.deepEqual([refused.status, refused.body], [403, { detail: SIGN_IN_WITH_SECOND_FACTOR }]);
    for (const action of ['disable/', 'mfa-off/', 'sessions-end/']) {
      const target = await registerVerified(mailed, uniqueEmail('target'));
      const acted = await mailed.server.request('POST', `/admin/accounts/${target.id}/${action}`, { token: byPassword, body: {} });
      assert.equal(acted.status, 403, `${action} by a password session`);
      assert.equal((await mailed.server.request('GET', '/account/profile/', { token: target.token })).status, 200, 'nothing was done');
    }

    const byPasskey = await signInWithPasskey(mailed.server, authenticator);
    const allowed = await audit(byPasskey);
    assert.equal(allowed.status, 200, allowed.text);
    assert.deepEqual(await sessionMethods(byPasskey), [
      ['password', false],
      ['password', false],
      ['passkey', true],
    ]);

    // The role taken back: nobody again, whatever the session.
    await mailed.server.server.ctx.db.kysely.updateTable('accounts').set({ is_operator: 0 }).where('id', '=', account.id).execute();
    assert.equal((await audit(byPasskey)).status, 404);
  });

  test('with TOTP: the password alone is refused; the password and a TOTP or recovery code are let in', async () => {
    const operator = await registerOperator(mailed);
    const beforeTotp = await audit(operator.passwordToken);
    assert.deepEqual([beforeTotp.status, beforeTotp.body], [403, { detail: SIGN_IN_WITH_SECOND_FACTOR }], 'opened before TOTP was on');

    const withCode = await audit(operator.token);
    assert.equal(withCode.status, 200, withCode.text);
    const withRecoveryCode = await signInWithSecondStep(mailed.server, operator.email, operator.mfa.recoveryCodes[0]!);
    assert.equal((await audit(withRecoveryCode)).status, 200);
    assert.deepEqual(await sessionMethods(withRecoveryCode), [
      ['password', false],
      ['password+totp', false],
      ['password+totp', true],
    ]);
  });

  test('a session from before sign-in methods were recorded counts as one factor', async () => {
    const operator = await registerOperator(mailed);
    assert.equal((await audit(operator.token)).status, 200);
    await mailed.server.server.ctx.db.kysely
      .updateTable('auth_tokens')
      .set({ sign_in_method: null })
      .where('account_id', '=', operator.id)
      .execute();
    const refused = await audit(operator.token);
    assert.deepEqual([refused.status, refused.body], [403, { detail: SIGN_IN_WITH_SECOND_FACTOR }]);
    const listed = await mailed.server.request('GET', '/auth/sessions/', { token: operator.token });
    assert.equal(listed.status, 200);
    assert.ok(listed.body.every((s: { sign_in_method: string | null }) => s.sign_in_method === null));
  });
});
