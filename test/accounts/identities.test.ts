// docs/sign-in-providers.md, sign in with another provider: the providers list, the web flow through a real
// OpenID provider's own pages (like Google: answer in the query; like Apple: form POST, PKCE
// required, an ES256 client secret), the one-time login code, the native flow with ID tokens
// signed by the provider's key, identities (a new account, never a silent link, linking and
// unlinking, the last way in), the two-step answer with TOTP on, Apple's refresh token revoked
// at the account's deletion through the outbox, and Apple's signed notifications. Every
// refusal: wrong state, nonce, audience, issuer, signature; expired and replayed ID tokens;
// login codes used twice or too late.
import { ACCOUNT_DISABLED as ACCOUNT_DISABLED_KEY } from '../../src/accounts/sessions/sign-in-token.ts';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { LAST_WAY_IN as LAST_WAY_IN_KEY, SIGN_IN_AGAIN as SIGN_IN_AGAIN_KEY } from '../../src/accounts/passkeys/passkey-service.ts';
import { LAST_IDENTITY as LAST_IDENTITY_KEY } from '../../src/accounts/identities/identity-service.ts';
import { SIGN_IN_AGAIN as DELETION_SIGN_IN_AGAIN_KEY } from '../../src/accounts/deletion/account-deletion.ts';
import {
  DEAD_FLOW as DEAD_FLOW_KEY,
  DEAD_LOGIN_CODE as DEAD_LOGIN_CODE_KEY,
  LINK_FROM_SETTINGS as LINK_FROM_SETTINGS_KEY,
  LINKED_ELSEWHERE as LINKED_ELSEWHERE_KEY,
  NO_VERIFIED_EMAIL as NO_VERIFIED_EMAIL_KEY,
  PASSWORD_TO_LINK as PASSWORD_TO_LINK_KEY,
  REPLAYED_ID_TOKEN as REPLAYED_ID_TOKEN_KEY,
  SIGN_IN_AGAIN_TO_LINK as SIGN_IN_AGAIN_TO_LINK_KEY,
} from '../../src/accounts/identities/identity-sign-in.ts';
import { WRONG_PASSWORD as WRONG_PASSWORD_KEY } from '../../src/auth/password-check-throttle.ts';
import {
  BAD_ID_TOKEN as BAD_ID_TOKEN_KEY,
  EXPIRED_ID_TOKEN as EXPIRED_ID_TOKEN_KEY,
  PROVIDER_REFUSED as PROVIDER_REFUSED_KEY,
  STALE_EVENT as STALE_EVENT_KEY,
  WRONG_NONCE as WRONG_NONCE_KEY,
} from '../../src/auth/oidc-relying-party.ts';
import { PUBLIC_URL } from '../helpers/server.ts';
import { signInAtProvider, startTestProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { CookieJar } from '../helpers/cookie-jar.ts';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.ts';
import { exportDocument } from '../helpers/zip.ts';
import { WAIT_MS } from '../helpers/wait.ts';
import { mailsTo, PASSWORD, registerVerified, startMailedServer, waitForMail, type MailedServer } from './account-flows.ts';

const PASSKEY_ADDED = 'A passkey was added to your account';
const IDENTITY_LINKED = 'A sign-in provider was linked to your account';
import { freshCode, turnOnTotp } from './mfa-flows.ts';
import { english } from '../helpers/english.ts';

const ACCOUNT_DISABLED = english(ACCOUNT_DISABLED_KEY);
const LAST_WAY_IN = english(LAST_WAY_IN_KEY);
const SIGN_IN_AGAIN = english(SIGN_IN_AGAIN_KEY);
const LAST_IDENTITY = english(LAST_IDENTITY_KEY);
const DELETION_SIGN_IN_AGAIN = english(DELETION_SIGN_IN_AGAIN_KEY);
const DEAD_FLOW = english(DEAD_FLOW_KEY);
const DEAD_LOGIN_CODE = english(DEAD_LOGIN_CODE_KEY);
const LINK_FROM_SETTINGS = english(LINK_FROM_SETTINGS_KEY);
const LINKED_ELSEWHERE = english(LINKED_ELSEWHERE_KEY);
const NO_VERIFIED_EMAIL = english(NO_VERIFIED_EMAIL_KEY);
const PASSWORD_TO_LINK = english(PASSWORD_TO_LINK_KEY);
const REPLAYED_ID_TOKEN = english(REPLAYED_ID_TOKEN_KEY);
const SIGN_IN_AGAIN_TO_LINK = english(SIGN_IN_AGAIN_TO_LINK_KEY);
const WRONG_PASSWORD = english(WRONG_PASSWORD_KEY);
const BAD_ID_TOKEN = english(BAD_ID_TOKEN_KEY);
const EXPIRED_ID_TOKEN = english(EXPIRED_ID_TOKEN_KEY);
const PROVIDER_REFUSED = english(PROVIDER_REFUSED_KEY);
const STALE_EVENT = english(STALE_EVENT_KEY);
const WRONG_NONCE = english(WRONG_NONCE_KEY);

describe('sign in with another provider (/auth/oidc/, /account/identities/)', () => {
  let google: TestOidcProvider;
  let apple: TestOidcProvider;
  let mailed: MailedServer;
  before(async () => {
    google = await startTestProvider('google', PUBLIC_URL);
    apple = await startTestProvider('apple', PUBLIC_URL);
    mailed = await startMailedServer({ OIDC_PROVIDERS: 'google,apple', ...google.env, ...apple.env });
  });
  after(async () => {
    await mailed?.close();
    await google?.close();
    await apple?.close();
  });

  const request = (...args: Parameters<MailedServer['server']['request']>) => mailed.server.request(...args);
  /**
   * A browser's request (its cookies in `jar`; none by default) whose redirect is the answer
   * (the service's 302s lead to the provider or the web client).
   */
  const navigate = async (method: 'GET' | 'POST', path: string, form?: URLSearchParams, jar = new CookieJar()) => {
    const response = await fetch(mailed.server.url + path, {
      method,
      redirect: 'manual',
      headers: { ...jar.headers(), ...(form && { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(form && { body: form.toString() }),
    });
    jar.take(response.headers);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
  };
  const db = () => mailed.server.server.ctx.db.kysely;
  const fragment = (location: string) => new URLSearchParams(new URL(location).hash.slice(1));
  const login = (prefix = 'person') => `${prefix}-${randomBytes(5).toString('hex')}`;

  /**
   * The web flow in one browser (`jar`, a new one by default) from start to the service's last
   * redirect; `tamper` changes the provider URL first; `callbackJar` is the browser that
   * opens the provider's answer (the same one unless said). A form POST answer's 303 to the
   * GET callback is followed, as a browser does.
   */
  async function webFlow(
    provider: TestOidcProvider,
    subject: string,
    options: {
      tamper?: (url: URL) => void;
      start?: string;
      extraFields?: Record<string, string>;
      jar?: CookieJar;
      callbackJar?: CookieJar;
    } = {},
  ) {
    const jar = options.jar ?? new CookieJar();
    let startUrl = options.start;
    if (!startUrl) {
      const started = await navigate(
        'GET',
        `/auth/oidc/${provider.kind}/start/?redirect=${encodeURIComponent('/profiles?tab=1')}`,
        undefined,
        jar,
      );
      assert.equal(started.status, 302, started.text);
      startUrl = started.headers.get('location')!;
    }
    const url = new URL(startUrl);
    options.tamper?.(url);
    const answer = await signInAtProvider(url.href, subject, PUBLIC_URL);
    if (answer.method === 'POST') for (const [name, value] of Object.entries(options.extraFields ?? {})) answer.fields.set(name, value);
    const opener = options.callbackJar ?? jar;
    let callback =
      answer.method === 'GET'
        ? await navigate('GET', answer.url.slice(PUBLIC_URL.length), undefined, opener)
        : await navigate('POST', answer.url.slice(PUBLIC_URL.length), answer.fields, opener);
    if (answer.method === 'POST') {
      assert.equal(callback.status, 303, callback.text);
      const location = callback.headers.get('location')!;
      assert.ok(location.startsWith(`${PUBLIC_URL}/auth/oidc/${provider.kind}/callback/?`), location);
      callback = await navigate('GET', location.slice(PUBLIC_URL.length), undefined, opener);
    }
    return { answer, callback, jar };
  }

  /** Redeems a one-time login code with a browser's cookies. */
  const redeem = (code: string | null, jar: CookieJar) => request('POST', '/auth/login/code/', { body: { code }, headers: jar.headers() });

  /** Signs in on the web and exchanges the code: the login's answer. */
  async function webSignIn(provider: TestOidcProvider, subject: string) {
    const { callback, jar } = await webFlow(provider, subject);
    assert.equal(callback.status, 302, callback.text);
    const location = callback.headers.get('location')!;
    const code = fragment(location).get('code');
    assert.ok(code, `a code in ${location}`);
    return redeem(code, jar);
  }

  /** A signed-in person's link through the web flow: the POST's answer, and the browser it set its cookie in. */
  async function startLink(provider: TestOidcProvider, token: string, password: string | undefined = PASSWORD) {
    const jar = new CookieJar();
    const link = await request('POST', `/account/identities/${provider.kind}/`, {
      token,
      body: { redirect: '/settings/identities', ...(password !== undefined && { password }) },
    });
    jar.take(link.headers);
    return { link, jar };
  }

  /** Issued now by the service's clock (the tests move it), valid 10 minutes. */
  const serverNow = () => Math.floor(mailed.server.clock.now() / 1000);
  const idToken = (provider: TestOidcProvider, claims: Record<string, unknown> = {}, options = {}) =>
    provider.sign(
      { sub: login('native'), email: `${login('native')}@example.com`, email_verified: true, nonce: 'n-1', ...claims },
      { issuedAt: serverNow(), ...options },
    );
  const nativeSignIn = (provider: TestOidcProvider, body: Record<string, unknown>) =>
    request('POST', `/auth/oidc/${provider.kind}/token/`, { body });

  test('GET /auth/providers/ lists the configured providers with their labels', async () => {
    const response = await request('GET', '/auth/providers/');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [
      { name: 'google', label: 'Google' },
      { name: 'apple', label: 'Apple' },
    ]);
    assert.equal((await navigate('GET', '/auth/oidc/nobody/start/')).status, 404);
  });

  test('start: a 302 to the provider with state, nonce and PKCE (S256); a redirect that is not a path here is refused', async () => {
    const started = await navigate('GET', '/auth/oidc/google/start/?redirect=/');
    assert.equal(started.status, 302);
    const url = new URL(started.headers.get('location')!);
    assert.equal(url.origin, google.issuer);
    for (const name of ['state', 'nonce', 'code_challenge']) assert.ok(url.searchParams.get(name), name);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('redirect_uri'), `${PUBLIC_URL}/auth/oidc/google/callback/`);
    assert.equal(url.searchParams.get('response_mode'), null);
    const appleUrl = new URL((await navigate('GET', '/auth/oidc/apple/start/')).headers.get('location')!);
    assert.equal(appleUrl.searchParams.get('response_mode'), 'form_post');
    for (const redirect of ['https://evil.example/', '//evil.example/', '/\\evil.example']) {
      const refused = await navigate('GET', `/auth/oidc/google/start/?redirect=${encodeURIComponent(redirect)}`);
      assert.equal(refused.status, 400, redirect);
    }
  });

  test('web flow like Google: a new verified address makes an account; the code signs in once; the same subject signs in again', async () => {
    const subject = login('google');
    const { callback, jar } = await webFlow(google, subject);
    assert.equal(callback.status, 302, callback.text);
    const location = callback.headers.get('location')!;
    assert.ok(location.startsWith(`${PUBLIC_URL}/sign-in/provider#`), location);
    const params = fragment(location);
    assert.equal(params.get('next'), '/profiles?tab=1');
    const code = params.get('code')!;
    const first = await redeem(code, jar);
    assert.equal(first.status, 200, first.text);
    assert.ok(first.body.token);
    const again = await redeem(code, jar);
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { code: [DEAD_LOGIN_CODE] });

    const emails = await request('GET', '/account/emails/', { token: first.body.token });
    assert.equal(emails.status, 200, emails.text);
    assert.equal(emails.body[0].email, `${subject}@example.com`);
    assert.equal(emails.body[0].verified, true);
    const identities = await request('GET', '/account/identities/', { token: first.body.token });
    assert.equal(identities.body.length, 1);
    assert.equal(identities.body[0].provider, 'google');
    assert.equal(identities.body[0].email, `${subject}@example.com`);
    assert.deepEqual(Object.keys(identities.body[0]).sort(), ['created_at', 'email', 'id', 'last_used_at', 'provider', 'url']);

    const second = await webSignIn(google, subject);
    assert.equal(second.status, 200, second.text);
    const sessions = await request('GET', '/auth/sessions/', { token: second.body.token });
    assert.deepEqual(
      sessions.body.map((s: { sign_in_method: string }) => s.sign_in_method),
      ['provider', 'provider'],
      'a provider sign-in records its method',
    );
    const me = await request('GET', '/account/profile/', { token: second.body.token });
    const meBefore = await request('GET', '/account/profile/', { token: first.body.token });
    assert.equal(me.body.id, meBefore.body.id);
  });

  test('web flow like Apple: form_post, PKCE, the ES256 client secret; the refresh token is kept sealed', async () => {
    const accepted = apple.appleSecretsAccepted;
    const subject = login('apple');
    // Apple sends the name once, as JSON in the form's `user` field, beside the code.
    const user = JSON.stringify({ name: { firstName: 'Katherine', lastName: 'Johnson' }, email: `${subject}@example.com` });
    const { answer, callback, jar } = await webFlow(apple, subject, { extraFields: { user } });
    assert.equal(answer.method, 'POST');
    assert.equal(callback.status, 302, callback.text);
    const signedIn = await redeem(fragment(callback.headers.get('location')!).get('code'), jar);
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.ok(apple.appleSecretsAccepted > accepted, 'the provider accepted the JWT client secret');
    const row = await db().selectFrom('identities').selectAll().where('subject', '=', subject).executeTakeFirstOrThrow();
    assert.ok(row.refresh_token?.startsWith('v1.'), 'sealed');
    assert.equal(row.client_id, apple.clientIds[0]);
    const profile = await request('GET', '/account/profile/', { token: signedIn.body.token });
    assert.deepEqual([profile.body.first_name, profile.body.last_name], ['Katherine', 'Johnson']);

    // Unlinking it (a passkey keeps a way in) revokes its refresh token at the provider.
    const authenticator = new SoftwareAuthenticator({ origin: PUBLIC_URL, rpId: new URL(PUBLIC_URL).hostname });
    const options = await request('POST', '/account/passkeys/options/', { token: signedIn.body.token, body: {} });
    const passkey = await request('POST', '/account/passkeys/', {
      token: signedIn.body.token,
      body: { name: 'Phone', response: authenticator.create(options.body) },
    });
    assert.equal(passkey.status, 201, passkey.text);
    const revokedBefore = apple.revoked.length;
    assert.equal((await request('DELETE', `/account/identities/${row.id}/`, { token: signedIn.body.token })).status, 204);
    const deadline = Date.now() + WAIT_MS;
    while (apple.revoked.length === revokedBefore && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(apple.revoked.length, revokedBefore + 1, 'the refresh token was revoked at the provider');
  });

  test('the callback refuses an unknown or used state (400), and a nonce that does not match', async () => {
    const unknown = await navigate('GET', '/auth/oidc/google/callback/?state=not-ours&code=x');
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body, { non_field_errors: [DEAD_FLOW] });
    const none = await navigate('GET', '/auth/oidc/google/callback/?code=x');
    assert.equal(none.status, 400);

    const { answer, callback, jar } = await webFlow(google, login('twice'));
    assert.equal(callback.status, 302);
    assert.equal(answer.method, 'GET');
    const replayed = await navigate('GET', answer.url.slice(PUBLIC_URL.length), undefined, jar);
    assert.equal(replayed.status, 400);
    assert.deepEqual(replayed.body, { non_field_errors: [DEAD_FLOW] });

    const tampered = await webFlow(google, login('nonce'), { tamper: (url) => url.searchParams.set('nonce', 'someone-elses-nonce') });
    assert.equal(tampered.callback.status, 302);
    const failed = fragment(tampered.callback.headers.get('location')!);
    assert.equal(failed.get('error'), WRONG_NONCE);
    assert.equal(failed.get('code'), null);
  });

  test('the start sets a __Host- cookie for the browser, kept while the browser sends it back', async () => {
    const jar = new CookieJar();
    const started = await navigate('GET', '/auth/oidc/google/start/', undefined, jar);
    const [cookie] = started.headers.getSetCookie();
    assert.ok(cookie, 'a Set-Cookie');
    const [pair, ...attributes] = cookie.split(';').map((part) => part.trim());
    assert.match(pair!, /^__Host-sign-in-browser=[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(attributes.filter((attribute) => !attribute.startsWith('Max-Age=')).sort(), [
      'HttpOnly',
      'Path=/',
      'SameSite=Lax',
      'Secure',
    ]);
    assert.ok(Number(attributes.find((attribute) => attribute.startsWith('Max-Age='))!.slice(8)) >= 660);
    const value = jar.get('__Host-sign-in-browser');
    await navigate('GET', '/auth/oidc/apple/start/', undefined, jar);
    assert.equal(jar.get('__Host-sign-in-browser'), value, 'a second flow in the same browser keeps its value');
    const planted = new CookieJar();
    planted.set('__Host-sign-in-browser', 'not-one-of-ours');
    await navigate('GET', '/auth/oidc/google/start/', undefined, planted);
    assert.match(planted.get('__Host-sign-in-browser')!, /^[A-Za-z0-9_-]{43}$/, 'a value the service did not make is replaced');
  });

  test('a login code works only in the browser that started the flow (login CSRF)', async () => {
    // Someone signs in with their own provider account and hands the code's URL to another person.
    const { callback, jar } = await webFlow(google, login('handed'));
    const code = fragment(callback.headers.get('location')!).get('code');
    assert.ok(code);
    const otherBrowser = new CookieJar();
    await navigate('GET', '/auth/oidc/google/start/', undefined, otherBrowser);
    assert.ok(otherBrowser.get('__Host-sign-in-browser'));
    for (const browser of [new CookieJar(), otherBrowser]) {
      const refused = await redeem(code, browser);
      assert.deepEqual([refused.status, refused.body], [400, { code: [DEAD_LOGIN_CODE] }]);
    }
    // Those attempts spent nothing: the browser that started the flow still signs in with it.
    const signedIn = await redeem(code, jar);
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.ok(signedIn.body.token);
  });

  test('the callback takes a flow only from the browser that started it (login and link CSRF)', async () => {
    // A sign-in flow's answer opened by another browser, with no cookie or its own.
    const attacker = new CookieJar();
    const victim = new CookieJar();
    await navigate('GET', '/auth/oidc/google/start/', undefined, victim);
    const subject = login('csrf');
    for (const opener of [new CookieJar(), victim]) {
      const { callback } = await webFlow(google, subject, { jar: attacker, callbackJar: opener });
      assert.deepEqual([callback.status, callback.body], [400, { non_field_errors: [DEAD_FLOW] }]);
    }
    // Apple's form POST, opened by another browser, gets as far as the GET callback, and no further.
    const posted = await webFlow(apple, login('csrf-apple'), { jar: attacker, callbackJar: new CookieJar() });
    assert.deepEqual([posted.callback.status, posted.callback.body], [400, { non_field_errors: [DEAD_FLOW] }]);
    assert.equal(await db().selectFrom('identities').select('id').where('subject', '=', subject).executeTakeFirst(), undefined);

    // A link flow started by one account, finished by someone else at the provider: nothing is linked.
    const account = await registerVerified(mailed);
    const { link, jar } = await startLink(google, account.token);
    assert.equal(link.status, 200, link.text);
    assert.ok(jar.get('__Host-sign-in-browser'), 'linking sets the cookie too');
    const victimSubject = login('link-csrf');
    const linkedElsewhere = await webFlow(google, victimSubject, { start: link.body.authorization_url, jar, callbackJar: victim });
    assert.deepEqual([linkedElsewhere.callback.status, linkedElsewhere.callback.body], [400, { non_field_errors: [DEAD_FLOW] }]);
    assert.equal((await request('GET', '/account/identities/', { token: account.token })).body.length, 0);
    // The browser that started it finishes it.
    const { callback } = await webFlow(google, victimSubject, { start: link.body.authorization_url, jar });
    assert.equal(callback.headers.get('location'), `${PUBLIC_URL}/settings/identities#linked=google`);
  });

  test('an expired login code is refused', async () => {
    const { callback, jar } = await webFlow(google, login('late'));
    const code = fragment(callback.headers.get('location')!).get('code');
    mailed.server.clock.advance(61_000);
    const late = await redeem(code, jar);
    assert.equal(late.status, 400);
    assert.deepEqual(late.body, { code: [DEAD_LOGIN_CODE] });
    assert.equal((await request('POST', '/auth/login/code/', { body: {} })).status, 400);
  });

  test('native flow: an ID token signed by the provider signs in once; every other token is refused', async () => {
    const token = await idToken(google);
    const signedIn = await nativeSignIn(google, { id_token: token, nonce: 'n-1' });
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.ok(signedIn.body.token);

    const replayed = await nativeSignIn(google, { id_token: token, nonce: 'n-1' });
    assert.equal(replayed.status, 400);
    assert.deepEqual(replayed.body, { id_token: [REPLAYED_ID_TOKEN] });
    // The same signature spelled otherwise is the same token: the unused low bit of its last
    // character flipped, or a space inside it (decoders skip both).
    const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const lastBitFlipped = token.slice(0, -1) + base64url[base64url.indexOf(token.at(-1)!) ^ 1];
    const spaced = `${token.slice(0, -10)} ${token.slice(-10)}`;
    for (const respelled of [lastBitFlipped, spaced]) {
      const again = await nativeSignIn(google, { id_token: respelled, nonce: 'n-1' });
      assert.deepEqual([again.status, again.body], [400, { id_token: [REPLAYED_ID_TOKEN] }], respelled.slice(-12));
    }

    const wrongNonce = await nativeSignIn(google, { id_token: await idToken(google), nonce: 'n-2' });
    assert.deepEqual([wrongNonce.status, wrongNonce.body], [400, { nonce: [WRONG_NONCE] }]);
    const missingNonce = await nativeSignIn(google, { id_token: await idToken(google) });
    assert.deepEqual([missingNonce.status, missingNonce.body], [400, { nonce: [WRONG_NONCE] }]);
    const audience = await nativeSignIn(google, { id_token: await idToken(google, { aud: 'someone-else' }), nonce: 'n-1' });
    assert.deepEqual([audience.status, audience.body], [400, { id_token: [BAD_ID_TOKEN] }]);
    const issuer = await nativeSignIn(google, { id_token: await idToken(google, { iss: 'https://accounts.example.org' }), nonce: 'n-1' });
    assert.deepEqual([issuer.status, issuer.body], [400, { id_token: [BAD_ID_TOKEN] }]);
    const otherKey = await nativeSignIn(google, { id_token: await idToken(apple, { iss: google.issuer }), nonce: 'n-1' });
    assert.deepEqual([otherKey.status, otherKey.body], [400, { id_token: [BAD_ID_TOKEN] }]);
    const expired = await nativeSignIn(google, {
      id_token: await idToken(google, {}, { issuedAt: Math.floor(mailed.server.clock.now() / 1000) - 3600, expiresIn: 600 }),
      nonce: 'n-1',
    });
    assert.deepEqual([expired.status, expired.body], [400, { id_token: [EXPIRED_ID_TOKEN] }]);
    // Several audiences: the party it was issued to (azp) must be present and one of ours.
    const app = google.clientIds[1]!;
    for (const claims of [{ aud: [app, 'someone-else'] }, { aud: [app, 'someone-else'], azp: 'someone-else' }, { aud: google.clientIds }]) {
      const refused = await nativeSignIn(google, { id_token: await idToken(google, claims), nonce: 'n-1' });
      assert.deepEqual([refused.status, refused.body], [400, { id_token: [BAD_ID_TOKEN] }], JSON.stringify(claims));
    }
    const authorized = await nativeSignIn(google, {
      id_token: await idToken(google, { aud: [app, 'someone-else'], azp: app }),
      nonce: 'n-1',
    });
    assert.equal(authorized.status, 200, authorized.text);
    const garbage = await nativeSignIn(google, { id_token: 'not.a.jwt', nonce: 'n-1' });
    assert.equal(garbage.status, 400);
    const unverified = await nativeSignIn(google, { id_token: await idToken(google, { email_verified: false }), nonce: 'n-1' });
    assert.deepEqual([unverified.status, unverified.body], [400, { non_field_errors: [NO_VERIFIED_EMAIL] }]);
  });

  test('an account a provider makes gets the language its request’s Accept-Language asks for', async () => {
    const subject = login('german');
    const signedIn = await request('POST', `/auth/oidc/${google.kind}/token/`, {
      body: { id_token: await idToken(google, { sub: subject, email: `${subject}@example.com` }), nonce: 'n-1' },
      headers: { 'accept-language': 'de-CH, en;q=0.5' },
    });
    assert.equal(signedIn.status, 200, signedIn.text);
    const profile = await request('GET', '/account/profile/', { token: signedIn.body.token });
    assert.equal(profile.body.language, 'de');
  });

  test('a disabled account (docs/operators.md) cannot sign in with a provider either', async () => {
    const subject = login('disabled');
    const claims = { sub: subject, email: `${subject}@example.com` };
    const first = await nativeSignIn(google, { id_token: await idToken(google, claims), nonce: 'n-1' });
    assert.equal(first.status, 200, first.text);
    const account = await mailed.server.server.ctx.db.kysely
      .selectFrom('email_addresses')
      .select('account_id')
      .where('email', '=', `${subject}@example.com`)
      .executeTakeFirstOrThrow();
    await mailed.server.server.ctx.db.kysely
      .updateTable('accounts')
      .set({ disabled_at: mailed.server.clock.now() })
      .where('id', '=', account.account_id)
      .execute();
    const again = await nativeSignIn(google, { id_token: await idToken(google, { ...claims, jti: 'again' }), nonce: 'n-1' });
    assert.deepEqual([again.status, again.body], [400, { non_field_errors: [ACCOUNT_DISABLED] }]);
  });

  test('native flow with Apple: the ID token carries the SHA-256 of the nonce the app sent', async () => {
    const nonce = randomBytes(16).toString('hex');
    const hashed = createHash('sha256').update(nonce).digest('hex');
    const signedIn = await nativeSignIn(apple, { id_token: await idToken(apple, { nonce: hashed, email_verified: 'true' }), nonce });
    assert.equal(signedIn.status, 200, signedIn.text);
    const raw = await nativeSignIn(apple, { id_token: await idToken(apple, { nonce }), nonce });
    assert.deepEqual([raw.status, raw.body], [400, { nonce: [WRONG_NONCE] }]);
  });

  test("native flow with Apple's authorization code: redeemed as the app for the refresh token, kept sealed", async () => {
    const subject = login('app-code');
    const nonce = randomBytes(16).toString('hex');
    const hashed = createHash('sha256').update(nonce).digest('hex');
    // The app's sign-in sheet: an authorization for the bundle id, answered with a code.
    const authorize = new URL(`${apple.issuer}/auth`);
    for (const [name, value] of Object.entries({
      client_id: apple.clientIds[1]!,
      redirect_uri: `${PUBLIC_URL}/auth/oidc/apple/callback/`,
      response_type: 'code',
      response_mode: 'form_post',
      scope: 'openid email',
      state: 'app-state',
      nonce: hashed,
    })) {
      authorize.searchParams.set(name, value);
    }
    const answer = await signInAtProvider(authorize.href, subject, PUBLIC_URL);
    assert.equal(answer.method, 'POST');
    const code = answer.method === 'POST' ? answer.fields.get('code') : null;
    assert.ok(code);
    const signedIn = await nativeSignIn(apple, { id_token: await idToken(apple, { sub: subject, nonce: hashed }), nonce, code });
    assert.equal(signedIn.status, 200, signedIn.text);
    const row = await db().selectFrom('identities').selectAll().where('subject', '=', subject).executeTakeFirstOrThrow();
    assert.ok(row.refresh_token?.startsWith('v1.'), 'the refresh token, sealed');
    assert.equal(row.client_id, apple.clientIds[1]);
    const reused = await nativeSignIn(apple, {
      id_token: await idToken(apple, { sub: subject, nonce: hashed, jti: 'another' }),
      nonce,
      code,
    });
    assert.deepEqual([reused.status, reused.body], [400, { code: [PROVIDER_REFUSED] }], 'a code works once');
  });

  test('the provider refusing (the person cancelled) sends the browser back with the reason', async () => {
    const jar = new CookieJar();
    const started = await navigate('GET', '/auth/oidc/google/start/?redirect=/data', undefined, jar);
    const state = new URL(started.headers.get('location')!).searchParams.get('state')!;
    const cancelled = await navigate(
      'GET',
      `/auth/oidc/google/callback/?state=${encodeURIComponent(state)}&error=access_denied&iss=${encodeURIComponent(google.issuer)}`,
      undefined,
      jar,
    );
    assert.equal(cancelled.status, 302);
    const params = fragment(cancelled.headers.get('location')!);
    assert.equal(params.get('error'), PROVIDER_REFUSED);
    assert.equal(params.get('next'), '/data');
  });

  test('an address an account already holds is never linked silently; signed in, the person links it', async () => {
    const account = await registerVerified(mailed);
    const subject = login('holder');
    const token = await idToken(google, { sub: subject, email: account.email });
    const refused = await nativeSignIn(google, { id_token: token, nonce: 'n-1' });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { non_field_errors: [LINK_FROM_SETTINGS] });
    google.people.set(subject, { email: account.email });
    const { callback } = await webFlow(google, subject);
    assert.equal(fragment(callback.headers.get('location')!).get('error'), LINK_FROM_SETTINGS);
    assert.equal((await request('GET', '/account/identities/', { token: account.token })).body.length, 0);

    // Linking through the web flow from the settings.
    const { link, jar } = await startLink(google, account.token);
    assert.equal(link.status, 200, link.text);
    const linked = await webFlow(google, subject, { start: link.body.authorization_url, jar });
    assert.equal(linked.callback.status, 302);
    assert.equal(linked.callback.headers.get('location'), `${PUBLIC_URL}/settings/identities#linked=google`);
    const identities = await request('GET', '/account/identities/', { token: account.token });
    assert.equal(identities.body.length, 1);

    // Now the subject signs in to that account, and cannot be linked to another one.
    const signedIn = await webSignIn(google, subject);
    assert.equal(signedIn.status, 200, signedIn.text);
    const profile = await request('GET', '/account/profile/', { token: signedIn.body.token });
    assert.equal(profile.body.id, account.id);
    const other = await registerVerified(mailed);
    const stolen = await request('POST', '/account/identities/google/', {
      token: other.token,
      body: { id_token: await idToken(google, { sub: subject }), nonce: 'n-1', password: PASSWORD },
    });
    assert.deepEqual([stolen.status, stolen.body], [400, { non_field_errors: [LINKED_ELSEWHERE] }]);

    // An app links with its ID token: 201 and the identity.
    const native = await request('POST', '/account/identities/google/', {
      token: other.token,
      body: { id_token: await idToken(google), nonce: 'n-1', password: PASSWORD },
    });
    assert.equal(native.status, 201, native.text);
    assert.equal(native.headers.get('location'), native.body.url);
    assert.equal((await request('POST', '/account/identities/google/', { body: { redirect: '/' } })).status, 401);
  });

  test('linking asks for the password again (a fresh sign-in without one) and tells the account’s address', async () => {
    const account = await registerVerified(mailed);
    const linkWith = (body: Record<string, unknown>, token = account.token) =>
      request('POST', '/account/identities/google/', { token, body });
    // A token alone links nothing, by either flow.
    for (const body of [{ redirect: '/settings/identities' }, { id_token: await idToken(google), nonce: 'n-1' }]) {
      const bare = await linkWith(body);
      assert.deepEqual([bare.status, bare.body], [400, { password: [PASSWORD_TO_LINK] }]);
      const wrong = await linkWith({ ...body, password: 'not-the-password' });
      assert.deepEqual([wrong.status, wrong.body], [400, { password: [WRONG_PASSWORD] }]);
    }
    assert.equal((await request('GET', '/account/identities/', { token: account.token })).body.length, 0);
    assert.equal((await linkWith({ redirect: '/', password: PASSWORD }, 'not-a-token')).status, 401);
    // Any one path segment is a name, even one with an encoded slash: no provider has it.
    for (const name of ['nobody', '%2F%20', 'a%2Fb']) {
      const unknown = await request('POST', `/account/identities/${name}/`, { token: account.token, body: { redirect: '/' } });
      assert.equal(unknown.status, 404, `${name}: ${unknown.text}`);
    }

    // With the password, by an app's ID token and by the web flow: each new link is mailed.
    const linked = await linkWith({ id_token: await idToken(google), nonce: 'n-1', password: PASSWORD });
    assert.equal(linked.status, 201, linked.text);
    const notice = await waitForMail(mailed.sink, account.email, IDENTITY_LINKED);
    assert.ok(notice.decoded.includes('Google'), notice.decoded);
    const { link, jar } = await startLink(apple, account.token);
    assert.equal(link.status, 200, link.text);
    const web = await webFlow(apple, login('linked-web'), { start: link.body.authorization_url, jar });
    assert.equal(web.callback.headers.get('location'), `${PUBLIC_URL}/settings/identities#linked=apple`);
    await waitForMail(mailed.sink, account.email, IDENTITY_LINKED, 2);

    // No password: a session opened within 5 minutes links; an older one must sign in again.
    const signedIn = await nativeSignIn(google, { id_token: await idToken(google), nonce: 'n-1' });
    const fresh = await linkWith({ redirect: '/settings/identities' }, signedIn.body.token);
    assert.equal(fresh.status, 200, fresh.text);
    mailed.server.clock.advance(5 * 60_000 + 1000);
    const stale = await linkWith({ redirect: '/settings/identities' }, signedIn.body.token);
    assert.deepEqual([stale.status, stale.body], [400, { non_field_errors: [SIGN_IN_AGAIN_TO_LINK] }]);
  });

  test('the last way in cannot be removed: identities and passkeys count together; a fresh sign-in stands in for the password', async () => {
    const signedIn = await nativeSignIn(google, { id_token: await idToken(google), nonce: 'n-1' });
    const token = signedIn.body.token;
    const [identity] = (await request('GET', '/account/identities/', { token })).body;
    const last = await request('DELETE', `/account/identities/${identity.id}/`, { token });
    assert.deepEqual([last.status, last.body], [409, { detail: LAST_IDENTITY }]);

    // No password: a session opened within 5 minutes adds a passkey without one.
    const authenticator = new SoftwareAuthenticator({ origin: PUBLIC_URL, rpId: new URL(PUBLIC_URL).hostname });
    const options = await request('POST', '/account/passkeys/options/', { token, body: {} });
    assert.equal(options.status, 200, options.text);
    const passkey = await request('POST', '/account/passkeys/', {
      token,
      body: { name: 'Phone', response: authenticator.create(options.body) },
    });
    assert.equal(passkey.status, 201, passkey.text);
    mailed.server.clock.advance(5 * 60_000 + 1000);
    const stale = await request('POST', '/account/passkeys/options/', { token, body: {} });
    assert.deepEqual([stale.status, stale.body], [400, { non_field_errors: [SIGN_IN_AGAIN] }]);

    // With the passkey, the identity may go; then the passkey is the last way in.
    assert.equal((await request('DELETE', `/account/identities/${identity.id}/`, { token })).status, 204);
    assert.equal((await request('DELETE', `/account/identities/${identity.id}/`, { token })).status, 404);
    const lastPasskey = await request('DELETE', `/account/passkeys/${passkey.body.id}/`, { token });
    assert.deepEqual([lastPasskey.status, lastPasskey.body], [409, { detail: LAST_WAY_IN }]);
  });

  test('an account without a password is deleted after a fresh sign-in instead of the password', async () => {
    const subject = login('deleting');
    const signedIn = await nativeSignIn(google, { id_token: await idToken(google, { sub: subject }), nonce: 'n-1' });
    const token = signedIn.body.token;
    mailed.server.clock.advance(5 * 60_000 + 1000);
    const stale = await request('DELETE', '/account/', { token, body: {} });
    assert.deepEqual([stale.status, stale.body], [400, { non_field_errors: [DELETION_SIGN_IN_AGAIN] }]);
    const again = await nativeSignIn(google, { id_token: await idToken(google, { sub: subject, jti: 'again' }), nonce: 'n-1' });
    assert.equal(again.status, 200, again.text);
    const deleted = await request('DELETE', '/account/', { token: again.body.token, body: {} });
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal((await request('GET', '/account/profile/', { token: again.body.token })).status, 401);
    assert.deepEqual(await db().selectFrom('identities').select('id').where('subject', '=', subject).execute(), []);
  });

  test('with TOTP on, a provider sign-in answers with the two-step answer', async () => {
    const account = await registerVerified(mailed);
    const subject = login('totp');
    const linked = await request('POST', '/account/identities/google/', {
      token: account.token,
      body: { id_token: await idToken(google, { sub: subject }), nonce: 'n-1', password: PASSWORD },
    });
    assert.equal(linked.status, 201, linked.text);
    const { secret } = await turnOnTotp(mailed.server, account);
    const first = await webSignIn(google, subject);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.mfa_required, true);
    const completed = await request('POST', '/auth/login/mfa/', {
      body: { mfa_token: first.body.mfa_token, code: freshCode(mailed.server, secret) },
    });
    assert.equal(completed.status, 200, completed.text);
    const sessions = await request('GET', '/auth/sessions/', { token: completed.body.token });
    assert.deepEqual(
      sessions.body.map((s: { sign_in_method: string; current: boolean }) => [s.sign_in_method, s.current]),
      [
        ['password', false],
        ['provider+totp', true],
      ],
    );
    // The session the second step opened is the identity's: Apple's consent-revoked would end it.
    const sessionsOfIdentity = await db()
      .selectFrom('identity_sessions')
      .innerJoin('identities', 'identities.id', 'identity_sessions.identity_id')
      .select('identity_sessions.token_id')
      .where('identities.subject', '=', subject)
      .execute();
    assert.equal(sessionsOfIdentity.length, 1);
    const native = await nativeSignIn(google, { id_token: await idToken(google, { sub: subject }), nonce: 'n-1' });
    assert.equal(native.body.mfa_required, true);
  });

  test('the export lists identities; deleting the account removes them and revokes Apple’s refresh token there', async () => {
    const account = await registerVerified(mailed);
    const { link, jar } = await startLink(apple, account.token);
    const subject = login('leaving');
    const linked = await webFlow(apple, subject, { start: link.body.authorization_url, jar });
    assert.equal(linked.callback.headers.get('location'), `${PUBLIC_URL}/settings/identities#linked=apple`);

    const exported = await fetch(`${mailed.server.url}/account/export/`, { headers: { authorization: `Token ${account.token}` } });
    assert.equal(exported.status, 200);
    const document = await exportDocument(Buffer.from(await exported.arrayBuffer()));
    assert.equal(document.identities.length, 1);
    assert.deepEqual(Object.keys(document.identities[0]).sort(), ['created_at', 'email', 'id', 'last_used_at', 'provider']);
    assert.equal(document.identities[0].provider, 'apple');

    const revokedBefore = apple.revoked.length;
    const deleted = await request('DELETE', '/account/', { token: account.token, body: { password: PASSWORD } });
    assert.equal(deleted.status, 204, deleted.text);
    const deadline = Date.now() + WAIT_MS;
    while (apple.revoked.length === revokedBefore && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(apple.revoked.length, revokedBefore + 1, 'the refresh token was revoked at the provider');
    const left = await db().selectFrom('identities').select('id').where('subject', '=', subject).execute();
    assert.deepEqual(left, []);
    // Once sent, the message keeps nothing of the (sealed) token.
    const sentRows = () =>
      db().selectFrom('outbox').select(['state', 'payload']).where('kind', '=', 'oidc-revocation').where('state', '=', 'sent').execute();
    while ((await sentRows()).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok((await sentRows()).every((row) => !row.payload.includes('v1.')));
    assert.ok((await sentRows()).length > 0);
  });

  test('Apple’s notifications: consent-revoked ends the identity and its sessions; mail stops and resumes; each is idempotent', async () => {
    const subject = login('notified');
    const relay = `${subject}@privaterelay.appleid.com`;
    const signedIn = await nativeSignIn(apple, {
      id_token: await idToken(apple, {
        sub: subject,
        email: relay,
        is_private_email: 'true',
        nonce: createHash('sha256').update('n').digest('hex'),
      }),
      nonce: 'n',
    });
    assert.equal(signedIn.status, 200, signedIn.text);
    const token = signedIn.body.token;
    const notify = async (type: string) =>
      request('POST', '/auth/oidc/apple/notifications/', {
        body: {
          payload: await apple.sign(
            { aud: apple.clientIds[0], events: JSON.stringify({ type, sub: subject, event_time: Date.now() }) },
            { issuedAt: serverNow() },
          ),
        },
      });
    const mailDisabled = async () =>
      (await db().selectFrom('identities').select('mail_disabled').where('subject', '=', subject).executeTakeFirst())?.mail_disabled;

    // Mail to the relay address stops while Apple says it is disabled: a passkey's notice is not sent.
    const authenticator = new SoftwareAuthenticator({ origin: PUBLIC_URL, rpId: new URL(PUBLIC_URL).hostname });
    const addPasskey = async (name: string) => {
      const options = await request('POST', '/account/passkeys/options/', { token, body: {} });
      const added = await request('POST', '/account/passkeys/', { token, body: { name, response: authenticator.create(options.body) } });
      assert.equal(added.status, 201, added.text);
    };
    assert.equal((await notify('email-disabled')).status, 200);
    assert.equal(Number(await mailDisabled()), 1);
    assert.equal((await notify('email-disabled')).status, 200);
    await addPasskey('While disabled');
    assert.equal((await notify('email-enabled')).status, 200);
    assert.equal(Number(await mailDisabled()), 0);
    await addPasskey('Once enabled');
    await waitForMail(mailed.sink, relay, PASSKEY_ADDED);
    assert.deepEqual(
      mailsTo(mailed.sink, relay, PASSKEY_ADDED).map((mail) => mail.decoded.includes('Once enabled')),
      [true],
    );

    const forged = await request('POST', '/auth/oidc/apple/notifications/', {
      body: {
        payload: await google.sign(
          { iss: apple.issuer, aud: apple.clientIds[0], events: JSON.stringify({ type: 'consent-revoked', sub: subject }) },
          { issuedAt: serverNow() },
        ),
      },
    });
    assert.equal(forged.status, 400);
    assert.equal((await request('GET', '/account/identities/', { token })).status, 200);

    assert.equal((await notify('consent-revoked')).status, 200);
    assert.equal((await request('GET', '/account/identities/', { token })).status, 401);
    assert.equal(await mailDisabled(), undefined);
    assert.equal((await notify('consent-revoked')).status, 200);
    assert.equal((await notify('account-delete')).status, 200);

    const other = login('gone');
    const again = await nativeSignIn(apple, {
      id_token: await idToken(apple, { sub: other, nonce: createHash('sha256').update('n').digest('hex') }),
      nonce: 'n',
    });
    assert.equal(again.status, 200);
    const event = await apple.sign(
      { aud: apple.clientIds[0], events: JSON.stringify({ type: 'account-delete', sub: other }) },
      { issuedAt: serverNow() },
    );
    assert.equal((await request('POST', '/auth/oidc/apple/notifications/', { body: { payload: event } })).status, 200);
    assert.equal((await db().selectFrom('identities').select('id').where('subject', '=', other).execute()).length, 0);
    assert.equal((await request('POST', '/auth/oidc/apple/notifications/', { body: { payload: 'nonsense' } })).status, 400);
  });

  test('Apple’s notifications older than a day (issued, or happened) are refused', async () => {
    const subject = login('late-event');
    const signedIn = await nativeSignIn(apple, {
      id_token: await idToken(apple, { sub: subject, nonce: createHash('sha256').update('n').digest('hex') }),
      nonce: 'n',
    });
    assert.equal(signedIn.status, 200, signedIn.text);
    const now = mailed.server.clock.now();
    const twoDays = 2 * 24 * 3600;
    const send = async (eventTime: number, issuedAt: number) =>
      request('POST', '/auth/oidc/apple/notifications/', {
        body: {
          payload: await apple.sign(
            { aud: apple.clientIds[0], events: JSON.stringify({ type: 'account-delete', sub: subject, event_time: eventTime }) },
            { issuedAt, expiresIn: 3 * 24 * 3600 },
          ),
        },
      });
    const stillLinked = async () => (await db().selectFrom('identities').select('id').where('subject', '=', subject).execute()).length;
    for (const [eventTime, issuedAt] of [
      [now, serverNow() - twoDays],
      [now - twoDays * 1000, serverNow()],
      [Math.floor(now / 1000) - twoDays, serverNow()],
    ] as const) {
      const stale = await send(eventTime, issuedAt);
      assert.deepEqual([stale.status, stale.body], [400, { payload: [STALE_EVENT] }], `${eventTime} ${issuedAt}`);
      assert.equal(await stillLinked(), 1);
    }
    assert.equal((await send(Math.floor(now / 1000), serverNow())).status, 200);
    assert.equal(await stillLinked(), 0);
  });
});

describe('sign-ins with another provider under the per-IP limit (RATE_LIMIT_PROVIDER_SIGN_IN_IP)', () => {
  let google: TestOidcProvider;
  let mailed: MailedServer;
  before(async () => {
    google = await startTestProvider('google', PUBLIC_URL);
    mailed = await startMailedServer({
      OIDC_PROVIDERS: 'google',
      ...google.env,
      RATE_LIMITS: 'on',
      RATE_LIMIT_PROVIDER_SIGN_IN_IP: '3/1m',
    });
  });
  after(async () => {
    await mailed?.close();
    await google?.close();
  });

  test('starts, ID tokens and login codes count together per IP; past the limit, 429 with Retry-After', async () => {
    const start = () => fetch(`${mailed.server.url}/auth/oidc/google/start/`, { redirect: 'manual' });
    assert.equal((await start()).status, 302);
    assert.equal((await mailed.server.request('POST', '/auth/login/code/', { body: { code: 'not-a-code' } })).status, 400);
    assert.equal((await mailed.server.request('POST', '/auth/oidc/google/token/', { body: { id_token: 'not.a.token' } })).status, 400);
    const limited = await start();
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal((await mailed.server.request('POST', '/auth/login/code/', { body: { code: 'not-a-code' } })).status, 429);
  });
});
