// docs/sign-in-providers.md, passkeys: adding one (the password first), listing, renaming, removing, the
// notice e-mail; signing in with one (a token as a login gives, no TOTP step); every refusal —
// unknown passkey, a challenge never issued, used or expired, another origin or RP id, no user
// verification, a counter going back — and the last way in; the export and the deletion.
// Through the real server, with a software authenticator that signs with node:crypto.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { WRONG_PASSWORD as WRONG_PASSWORD_KEY } from '../../src/auth/password-check-throttle.ts';
import {
  ALREADY_REGISTERED as ALREADY_REGISTERED_KEY,
  DEAD_REGISTRATION as DEAD_REGISTRATION_KEY,
  LAST_WAY_IN as LAST_WAY_IN_KEY,
} from '../../src/accounts/passkeys/passkey-service.ts';
import {
  CLONED_PASSKEY as CLONED_PASSKEY_KEY,
  DEAD_SIGN_IN as DEAD_SIGN_IN_KEY,
  UNKNOWN_PASSKEY as UNKNOWN_PASSKEY_KEY,
} from '../../src/accounts/passkeys/passkey-sign-in.ts';
import {
  NO_USER_VERIFICATION as NO_USER_VERIFICATION_KEY,
  NOT_VERIFIED as NOT_VERIFIED_KEY,
  UNREADABLE_ANSWER as UNREADABLE_ANSWER_KEY,
} from '../../src/accounts/passkeys/webauthn-ceremonies.ts';
import { PASSWORD, registerVerified, startMailedServer, waitForMail, type MailedServer, type RegisteredAccount } from './account-flows.ts';
import { turnOnTotp } from './mfa-flows.ts';
import { PUBLIC_URL } from '../helpers/server.ts';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.ts';
import { exportDocument } from '../helpers/zip.ts';
import { english } from '../helpers/english.ts';

const WRONG_PASSWORD = english(WRONG_PASSWORD_KEY);
const ALREADY_REGISTERED = english(ALREADY_REGISTERED_KEY);
const DEAD_REGISTRATION = english(DEAD_REGISTRATION_KEY);
const LAST_WAY_IN = english(LAST_WAY_IN_KEY);
const CLONED_PASSKEY = english(CLONED_PASSKEY_KEY);
const DEAD_SIGN_IN = english(DEAD_SIGN_IN_KEY);
const UNKNOWN_PASSKEY = english(UNKNOWN_PASSKEY_KEY);
const NO_USER_VERIFICATION = english(NO_USER_VERIFICATION_KEY);
const NOT_VERIFIED = english(NOT_VERIFIED_KEY);
const UNREADABLE_ANSWER = english(UNREADABLE_ANSWER_KEY);

const SITE = { origin: PUBLIC_URL, rpId: new URL(PUBLIC_URL).hostname };
const ADDED_SUBJECT = 'A passkey was added to your account';
const USER_AGENT = 'PasskeyTest/1.0 (software authenticator)';

describe('passkeys (/account/passkeys/, /auth/passkey/)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer();
  });
  after(() => mailed.close());

  const request = (...args: Parameters<MailedServer['server']['request']>) => mailed.server.request(...args);
  const creationOptions = async (account: RegisteredAccount) => {
    const response = await request('POST', '/account/passkeys/options/', { token: account.token, body: { password: PASSWORD } });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const signInOptions = async () => {
    const response = await request('POST', '/auth/passkey/options/');
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const signIn = (response: unknown) => request('POST', '/auth/passkey/', { body: { response }, headers: { 'user-agent': USER_AGENT } });

  /** A verified account with a passkey on a fresh authenticator. */
  async function withPasskey(name = 'Laptop') {
    const account = await registerVerified(mailed);
    const authenticator = new SoftwareAuthenticator(SITE);
    const created = await request('POST', '/account/passkeys/', {
      token: account.token,
      body: { name, response: authenticator.create(await creationOptions(account)) },
    });
    assert.equal(created.status, 201, created.text);
    return { account, authenticator, passkey: created.body };
  }

  test('adding one: the password first, creation options that require a resident key and user verification', async () => {
    const account = await registerVerified(mailed);
    const wrong = await request('POST', '/account/passkeys/options/', { token: account.token, body: { password: 'not-the-password-1' } });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body, { password: [WRONG_PASSWORD] });
    assert.equal((await request('POST', '/account/passkeys/options/', { body: { password: PASSWORD } })).status, 401);

    const options = await creationOptions(account);
    assert.equal(options.rp.id, SITE.rpId);
    assert.equal(options.rp.name, 'Profile Service');
    assert.equal(options.user.name, account.email);
    assert.equal(options.authenticatorSelection.residentKey, 'required');
    assert.equal(options.authenticatorSelection.userVerification, 'required');
    assert.deepEqual(options.excludeCredentials, []);
    assert.ok(
      options.pubKeyCredParams.some((p: { alg: number }) => p.alg === -7),
      'ES256 is offered',
    );

    const authenticator = new SoftwareAuthenticator(SITE);
    const created = await request('POST', '/account/passkeys/', {
      token: account.token,
      body: { name: '  Laptop  ', response: authenticator.create(options) },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), ['backed_up', 'created_at', 'id', 'last_used_at', 'name', 'url']);
    assert.equal(created.body.name, 'Laptop');
    assert.equal(created.body.last_used_at, null);
    assert.equal(created.body.backed_up, false);
    assert.equal(created.body.url, `${PUBLIC_URL}/account/passkeys/${created.body.id}/`);
    assert.equal(created.headers.get('location'), created.body.url);

    const notice = await waitForMail(mailed.sink, account.email, ADDED_SUBJECT);
    assert.match(notice.decoded, /"Laptop"/);

    const list = await request('GET', '/account/passkeys/', { token: account.token });
    assert.deepEqual(list.body, [created.body]);
    assert.deepEqual((await request('GET', `/account/passkeys/${created.body.id}/`, { token: account.token })).body, created.body);
    // The next options exclude it, so the authenticator does not make a second one.
    const again = await creationOptions(account);
    assert.deepEqual(
      again.excludeCredentials.map((c: { id: string }) => c.id),
      [authenticator.passkeys[0]!.credentialId.toString('base64url')],
    );
  });

  test('adding one: a challenge works once, for its own account; a credential already registered is refused', async () => {
    const account = await registerVerified(mailed);
    const stranger = await registerVerified(mailed);
    const authenticator = new SoftwareAuthenticator(SITE);
    const options = await creationOptions(account);
    const answer = authenticator.create(options);
    const foreign = await request('POST', '/account/passkeys/', { token: stranger.token, body: { name: 'Mine', response: answer } });
    assert.equal(foreign.status, 400);
    assert.deepEqual(foreign.body, { response: [DEAD_REGISTRATION] });
    assert.equal(
      (await request('POST', '/account/passkeys/', { token: account.token, body: { name: 'One', response: answer } })).status,
      201,
    );
    const replay = await request('POST', '/account/passkeys/', { token: account.token, body: { name: 'Two', response: answer } });
    assert.equal(replay.status, 400);
    assert.deepEqual(replay.body, { response: [DEAD_REGISTRATION] });

    // The same credential, answered to a fresh challenge: already registered.
    const fresh = await creationOptions(account);
    const same = {
      ...answer,
      response: { ...answer.response, clientDataJSON: reChallenge(answer.response.clientDataJSON, fresh.challenge) },
    };
    const duplicate = await request('POST', '/account/passkeys/', { token: account.token, body: { name: 'Dup', response: same } });
    assert.equal(duplicate.status, 400);
    assert.deepEqual(duplicate.body, { response: [ALREADY_REGISTERED] });

    // A made-up challenge, the wrong origin, no user verification, junk: 400, never 500.
    const madeUp = authenticator.create({ challenge: 'bm90LWEtcmVhbC1jaGFsbGVuZ2U', user: { id: 'MQ' } });
    const refused = await request('POST', '/account/passkeys/', { token: account.token, body: { name: 'X', response: madeUp } });
    assert.deepEqual([refused.status, refused.body], [400, { response: [DEAD_REGISTRATION] }]);
    const elsewhere = authenticator.create(await creationOptions(account), { origin: 'https://evil.example', rpId: SITE.rpId });
    const wrongOrigin = await request('POST', '/account/passkeys/', { token: account.token, body: { name: 'X', response: elsewhere } });
    assert.deepEqual([wrongOrigin.status, wrongOrigin.body], [400, { response: [NOT_VERIFIED] }]);
    authenticator.userVerified = false;
    const unverified = authenticator.create(await creationOptions(account));
    const noUv = await request('POST', '/account/passkeys/', { token: account.token, body: { name: 'X', response: unverified } });
    assert.deepEqual([noUv.status, noUv.body], [400, { response: [NO_USER_VERIFICATION] }]);
    authenticator.userVerified = true;
    const junk = { ...answer, response: { ...answer.response, clientDataJSON: 'bm90IGpzb24' } };
    const unreadable = await request('POST', '/account/passkeys/', { token: account.token, body: { name: 'X', response: junk } });
    assert.deepEqual([unreadable.status, unreadable.body], [400, { response: [UNREADABLE_ANSWER] }]);
    const badShape = await request('POST', '/account/passkeys/', { token: account.token, body: { name: '', response: { id: 1 } } });
    assert.equal(badShape.status, 400);
    assert.deepEqual(Object.keys(badShape.body).sort(), ['name', 'response']);
    assert.equal((await request('GET', '/account/passkeys/', { token: account.token })).body.length, 1);
  });

  test('signing in: discoverable options; a token as a login gives, its session with user agent and IP; no TOTP step', async () => {
    const { account, authenticator, passkey } = await withPasskey();
    await turnOnTotp(mailed.server, account);
    const options = await signInOptions();
    assert.equal(options.rpId, SITE.rpId);
    assert.equal(options.userVerification, 'required');
    assert.ok(!options.allowCredentials || options.allowCredentials.length === 0, 'no credentials named: discoverable');

    const answer = await signIn(authenticator.get(options));
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(Object.keys(answer.body), ['token']);
    const sessions = await request('GET', '/auth/sessions/', { token: answer.body.token });
    assert.equal(sessions.status, 200);
    const current = sessions.body.find((session: { current: boolean }) => session.current);
    assert.equal(current.user_agent, USER_AGENT);
    assert.equal(current.ip_address, '127.0.0.1');
    const used = await request('GET', `/account/passkeys/${passkey.id}/`, { token: account.token });
    assert.equal(used.body.last_used_at, new Date(mailed.server.clock.now()).toISOString());
  });

  test('signing in: an unknown passkey, a challenge never issued or used twice, another origin or RP id, no user verification: 400', async () => {
    const { authenticator } = await withPasskey();
    const stranger = new SoftwareAuthenticator(SITE);
    stranger.create({ challenge: 'eA', user: { id: 'OTk5' } });
    const unknown = await signIn(stranger.get(await signInOptions()));
    assert.deepEqual([unknown.status, unknown.body], [400, { response: [UNKNOWN_PASSKEY] }]);

    const neverIssued = await signIn(authenticator.get({ challenge: 'bm90LWEtcmVhbC1jaGFsbGVuZ2U' }));
    assert.deepEqual([neverIssued.status, neverIssued.body], [400, { response: [DEAD_SIGN_IN] }]);

    const options = await signInOptions();
    const first = authenticator.get(options);
    assert.equal((await signIn(first)).status, 200);
    const reused = await signIn(authenticator.get(options));
    assert.deepEqual([reused.status, reused.body], [400, { response: [DEAD_SIGN_IN] }]);

    // A registration challenge does not sign in.
    const wrongOrigin = await signIn(
      authenticator.get(await signInOptions(), undefined, { origin: 'https://evil.example', rpId: SITE.rpId }),
    );
    assert.deepEqual([wrongOrigin.status, wrongOrigin.body], [400, { response: [NOT_VERIFIED] }]);
    const wrongRp = await signIn(authenticator.get(await signInOptions(), undefined, { origin: SITE.origin, rpId: 'evil.example' }));
    assert.deepEqual([wrongRp.status, wrongRp.body], [400, { response: [NOT_VERIFIED] }]);
    authenticator.userVerified = false;
    const noUv = await signIn(authenticator.get(await signInOptions()));
    assert.deepEqual([noUv.status, noUv.body], [400, { response: [NO_USER_VERIFICATION] }]);
    authenticator.userVerified = true;

    // Someone else's signature on this passkey's id.
    const forged = { ...stranger.get(await signInOptions()), id: first.id, rawId: first.rawId };
    const notOurs = await signIn(forged);
    assert.equal(notOurs.status, 400);
    const junk = await signIn({ ...first, response: { ...first.response, clientDataJSON: '' } });
    assert.equal(junk.status, 400);
    assert.equal((await signIn(authenticator.get(await signInOptions()))).status, 200, 'the passkey still works');
  });

  test('a cloned authenticator: a counter that goes back (or stays) is refused; one that keeps no counter is not', async () => {
    const { authenticator } = await withPasskey();
    assert.equal((await signIn(authenticator.get(await signInOptions()))).status, 200);
    const passkey = authenticator.passkeys[0]!;
    const clone = await signIn(authenticator.get(await signInOptions(), passkey, SITE, passkey.counter - 1));
    assert.deepEqual([clone.status, clone.body], [400, { response: [CLONED_PASSKEY] }]);
    const same = await signIn(authenticator.get(await signInOptions(), passkey, SITE, passkey.counter));
    assert.deepEqual([same.status, same.body], [400, { response: [CLONED_PASSKEY] }]);
    assert.equal((await signIn(authenticator.get(await signInOptions()))).status, 200);

    const counterless = new SoftwareAuthenticator(SITE);
    counterless.keepsCounter = false;
    const account = await registerVerified(mailed);
    const created = await request('POST', '/account/passkeys/', {
      token: account.token,
      body: { name: 'Key', response: counterless.create(await creationOptions(account)) },
    });
    assert.equal(created.status, 201, created.text);
    for (let i = 0; i < 2; i++) assert.equal((await signIn(counterless.get(await signInOptions()))).status, 200);
  });

  test('rename (PATCH, PUT), remove; another account’s passkey is 404; a passkey removed no longer signs in', async () => {
    const { account, authenticator, passkey } = await withPasskey();
    const stranger = await registerVerified(mailed);
    const path = `/account/passkeys/${passkey.id}/`;
    const renamed = await request('PATCH', path, { token: account.token, body: { name: 'Work laptop' } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.name, 'Work laptop');
    assert.equal((await request('PUT', path, { token: account.token, body: { name: 'Desk' } })).body.name, 'Desk');
    const empty = await request('PATCH', path, { token: account.token, body: { name: '   ' } });
    assert.equal(empty.status, 400);
    assert.deepEqual(Object.keys(empty.body), ['name']);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const foreign = await request(method, path, { token: stranger.token, body: method === 'PATCH' ? { name: 'Mine' } : undefined });
      assert.equal(foreign.status, 404, `${method} ${foreign.text}`);
    }
    assert.equal((await request('GET', '/account/passkeys/99999/', { token: account.token })).status, 404);
    assert.equal((await request('DELETE', path, { token: account.token })).status, 204);
    assert.equal((await request('GET', path, { token: account.token })).status, 404);
    const gone = await signIn(authenticator.get(await signInOptions()));
    assert.deepEqual([gone.status, gone.body], [400, { response: [UNKNOWN_PASSKEY] }]);
  });

  test('the last way in: without a password, the only passkey cannot be removed (409); with another one it can', async () => {
    const { account, passkey } = await withPasskey('First');
    const db = mailed.server.server.ctx.db.kysely;
    // An account without a password (made by another way in): its hash is empty.
    await db.updateTable('accounts').set({ password_hash: '' }).where('id', '=', account.id).execute();
    const refused = await request('DELETE', `/account/passkeys/${passkey.id}/`, { token: account.token });
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body, { detail: LAST_WAY_IN });

    const second = await db
      .insertInto('passkeys')
      .values({
        account_id: account.id,
        credential_id: 'c2Vjb25kLXBhc3NrZXk',
        public_key: 'AA',
        counter: 0,
        transports: '',
        backed_up: 0,
        name: 'Second',
        created_at: mailed.server.clock.now(),
        last_used_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.equal((await request('DELETE', `/account/passkeys/${passkey.id}/`, { token: account.token })).status, 204);
    const last = await request('DELETE', `/account/passkeys/${second.id}/`, { token: account.token });
    assert.equal(last.status, 409);
  });

  test('the export lists the passkeys without key material; deleting the account removes them', async () => {
    const { account, authenticator, passkey } = await withPasskey('Phone');
    const exported = await fetch(`${mailed.server.url}/account/export/`, { headers: { authorization: `Token ${account.token}` } });
    assert.equal(exported.status, 200);
    const document = await exportDocument(Buffer.from(await exported.arrayBuffer()));
    assert.deepEqual(document.passkeys, [
      { id: passkey.id, name: 'Phone', created_at: passkey.created_at, last_used_at: null, backed_up: false },
    ]);
    const text = JSON.stringify(document);
    assert.ok(!text.includes(authenticator.passkeys[0]!.credentialId.toString('base64url')), 'no credential id in the export');

    const db = mailed.server.server.ctx.db.kysely;
    await signInOptions();
    assert.equal((await request('DELETE', '/account/', { token: account.token, body: { password: PASSWORD } })).status, 204);
    assert.deepEqual(await db.selectFrom('passkeys').select('id').where('account_id', '=', account.id).execute(), []);
    assert.deepEqual(await db.selectFrom('webauthn_challenges').select('id').where('account_id', '=', account.id).execute(), []);
    const afterwards = await signIn(authenticator.get(await signInOptions()));
    assert.deepEqual([afterwards.status, afterwards.body], [400, { response: [UNKNOWN_PASSKEY] }]);
  });
});

describe('passkey sign-in under the login limits', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ RATE_LIMITS: 'on', RATE_LIMIT_LOGIN_IP: '3/1m', RATE_LIMIT_PASSKEY_OPTIONS_IP: '100/1m' });
  });
  after(() => mailed.close());

  test('failed passkey sign-ins count against the IP like failed logins: past the limit, 429 with Retry-After', async () => {
    const { server } = mailed;
    const stranger = new SoftwareAuthenticator(SITE);
    stranger.create({ challenge: 'eA', user: { id: 'OTk5' } });
    for (let i = 0; i < 3; i++) {
      const options = (await server.request('POST', '/auth/passkey/options/')).body;
      assert.equal((await server.request('POST', '/auth/passkey/', { body: { response: stranger.get(options) } })).status, 400);
    }
    const options = (await server.request('POST', '/auth/passkey/options/')).body;
    const limited = await server.request('POST', '/auth/passkey/', { body: { response: stranger.get(options) } });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    // The password login shares the count.
    const login = await server.request('POST', '/auth/login/', { body: { username: 'nobody@example.com', password: PASSWORD } });
    assert.equal(login.status, 429);
  });
});

/** clientDataJSON with another challenge: the same authenticator answer, for a new ceremony. */
function reChallenge(clientDataJSON: string, challenge: string): string {
  const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
  return Buffer.from(JSON.stringify({ ...data, challenge })).toString('base64url');
}
