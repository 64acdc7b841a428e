// The API's error sentences in the request's language (Accept-Language, best match among
// LANGUAGES, else DEFAULT_LANGUAGE), with Content-Language; everything else of the wire format
// as in English. Over real HTTP, on the test database.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CATALOGUES } from '../../src/i18n/catalogues.ts';
import { formatMessage } from '../../src/i18n/format.ts';
import { SUPPORTED_LANGUAGES } from '../../src/i18n/languages.ts';
import { createOwner, createProfile, createTopic, type Owner } from '../app-data/fixtures.ts';
import { createAccount } from '../helpers/accounts.ts';
import { english } from '../helpers/english.ts';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';

/** A message of `language`'s api.json, formatted. */
function say(language: 'de' | 'fr' | 'es', key: string, values?: Record<string, string | number>): string {
  return formatMessage(language, 'api', key, values);
}

function assertLanguage(response: TestResponse, language: string): void {
  assert.equal(response.headers.get('content-language'), language, response.text);
  assert.match(response.headers.get('vary') ?? '', /accept-language/i);
}

describe('error sentences follow Accept-Language', () => {
  let server: TestServer;
  let owner: Owner;
  let profileId: number;
  let topicId: number;
  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
    profileId = (await createProfile(server, owner)).id;
    topicId = (await createTopic(server, owner, profileId)).id;
  });
  after(() => server.close());

  test('400: Ajv field messages, top level and nested, with their values', async () => {
    const missing = await server.request('POST', '/auth/register/', { body: {}, headers: { 'accept-language': 'de' } });
    assert.equal(missing.status, 400);
    assertLanguage(missing, 'de');
    assert.deepEqual(missing.body, { email: ['Dieses Feld ist erforderlich.'], password: ['Dieses Feld ist erforderlich.'] });

    const nested = await server.request('POST', `/app/topics/${topicId}/items/`, {
      token: owner.token,
      body: { name: 'x'.repeat(300), list_content: { entries: [{ text: 'fine' }, { text: 5 }] } },
      headers: { 'accept-language': 'fr' },
    });
    assert.equal(nested.status, 400, nested.text);
    assertLanguage(nested, 'fr');
    assert.deepEqual(nested.body.list_content, { entries: [{}, { text: [say('fr', 'validation.string')] }] });
    const [tooLong] = nested.body.name as string[];
    assert.match(tooLong!, /^Ce champ ne doit pas contenir plus de \d+ caractères\.$/);

    const english = await server.request('POST', `/app/topics/${topicId}/items/`, {
      token: owner.token,
      body: { name: 'x'.repeat(300), list_content: { entries: [{ text: 'fine' }, { text: 5 }] } },
    });
    assert.equal(english.headers.get('content-language'), 'en');
    assert.deepEqual(english.body.list_content, { entries: [{}, { text: ['Not a valid string.'] }] });
    assert.match(english.body.name[0], /^Ensure this field has no more than \d+ characters\.$/);
  });

  test("400: a service's field message and non-field message", async () => {
    const taken = await createAccount(server);
    const again = await server.request('POST', '/auth/register/', {
      body: { email: taken.email, password: 'Short1' },
      headers: { 'accept-language': 'es' },
    });
    assert.equal(again.status, 400);
    assertLanguage(again, 'es');
    assert.deepEqual(again.body.email, ['Esta dirección de correo electrónico ya está en uso.']);
    assert.ok(again.body.password.includes(say('es', 'passwords.tooShort', { min: 8 })), again.text);
    assert.match(say('es', 'passwords.tooShort', { min: 8 }), /al menos 8 caracteres/);

    const both = await server.request('POST', '/auth/login/', {
      body: { username: taken.email, password: 'wrong password here' },
      headers: { 'accept-language': 'de' },
    });
    assert.equal(both.status, 400);
    assert.deepEqual(both.body, { non_field_errors: [say('de', 'login.invalidCredentials')] });
  });

  test('401: no credentials, and an unknown token', async () => {
    const none = await server.request('GET', '/account/profile/', { headers: { 'accept-language': 'fr' } });
    assert.equal(none.status, 401);
    assertLanguage(none, 'fr');
    assert.equal(none.headers.get('www-authenticate'), 'Token');
    assert.deepEqual(none.body, { detail: 'Aucun identifiant d’authentification n’a été fourni.' });
    const unknown = await server.request('GET', '/account/profile/', { token: 'x'.repeat(43), headers: { 'accept-language': 'es' } });
    assert.equal(unknown.status, 401);
    assert.deepEqual(unknown.body, { detail: 'Token no válido.' });
  });

  test('403: registering while signed in', async () => {
    const response = await server.request('POST', '/auth/register/', {
      token: owner.token,
      body: { email: 'someone@example.com', password: 'a long enough passphrase' },
      headers: { 'accept-language': 'de' },
    });
    assert.equal(response.status, 403);
    assertLanguage(response, 'de');
    assert.deepEqual(response.body, { detail: say('de', 'registration.alreadyLoggedIn') });
  });

  test('404: an unknown route and an object that is not there, byte for byte alike', async () => {
    const route = await server.request('GET', '/no/such/route/', { headers: { 'accept-language': 'es' } });
    const object = await server.request('GET', '/app/profiles/999999/', { token: owner.token, headers: { 'accept-language': 'es' } });
    for (const response of [route, object]) {
      assert.equal(response.status, 404);
      assertLanguage(response, 'es');
      assert.equal(response.text, '{"detail":"No encontrado."}');
    }
  });

  test('405, malformed JSON and 415: the HTTP layer speaks it too', async () => {
    const method = await server.request('DELETE', '/health/', { headers: { 'accept-language': 'fr' } });
    assert.equal(method.status, 405);
    assert.deepEqual(method.body, { detail: say('fr', 'http.methodNotAllowed', { method: 'DELETE' }) });
    assert.match(method.body.detail, /«\sDELETE\s»/);
    const malformed = await server.request('POST', '/auth/login/', {
      raw: '{"username": ',
      headers: { 'content-type': 'application/json', 'accept-language': 'de' },
    });
    assert.equal(malformed.status, 400);
    assert.deepEqual(malformed.body, { detail: 'Der Anfragetext ist kein gültiges JSON.' });
    const plain = await server.request('POST', '/auth/login/', {
      raw: 'hello',
      headers: { 'content-type': 'text/plain', 'accept-language': 'es' },
    });
    assert.equal(plain.status, 415);
    assert.deepEqual(plain.body, { detail: say('es', 'http.unsupportedMediaType', { type: 'text/plain' }) });
  });

  test('409: deleting the primary address', async () => {
    const emails = await server.request('GET', '/account/emails/', { token: owner.token });
    const primary = (emails.body as { id: number; primary: boolean }[]).find((address) => address.primary)!;
    const response = await server.request('DELETE', `/account/emails/${primary.id}/`, {
      token: owner.token,
      headers: { 'accept-language': 'fr' },
    });
    assert.equal(response.status, 409, response.text);
    assertLanguage(response, 'fr');
    assert.deepEqual(response.body, { detail: say('fr', 'emails.primaryCannotBeDeleted') });
  });

  test('412: a stale If-Match', async () => {
    const response = await server.request('PATCH', `/app/profiles/${profileId}/`, {
      token: owner.token,
      body: { name: 'Away' },
      headers: { 'if-match': '"stale"', 'accept-language': 'es' },
    });
    assert.equal(response.status, 412);
    assertLanguage(response, 'es');
    assert.deepEqual(response.body, { detail: say('es', 'conditional.stale') });
  });

  test('413: a JSON body over the limit', async () => {
    const response = await server.request('POST', '/auth/login/', {
      raw: JSON.stringify({ username: 'a@example.com', password: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json', 'accept-language': 'de' },
    });
    assert.equal(response.status, 413);
    assertLanguage(response, 'de');
    assert.deepEqual(response.body, { detail: 'Der Anfragetext ist zu groß.' });
  });

  test('q-values choose, a region matches its language, and a success pays nothing', async () => {
    const weighted = await server.request('GET', '/no/such/route/', { headers: { 'accept-language': 'es;q=0.4, fr;q=0.9, de;q=0.8' } });
    assert.equal(weighted.headers.get('content-language'), 'fr');
    assert.deepEqual(weighted.body, { detail: 'Introuvable.' });
    const region = await server.request('GET', '/no/such/route/', { headers: { 'accept-language': 'de-AT' } });
    assert.equal(region.headers.get('content-language'), 'de');
    assert.deepEqual(region.body, { detail: 'Nicht gefunden.' });
    const unknown = await server.request('GET', '/no/such/route/', { headers: { 'accept-language': 'ja, zh;q=0.5' } });
    assert.equal(unknown.headers.get('content-language'), 'en');
    assert.deepEqual(unknown.body, { detail: 'Not found.' });
    const ok = await server.request('GET', '/account/profile/', { token: owner.token, headers: { 'accept-language': 'de' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('content-language'), null);
  });
});

describe('an expired token', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ TOKEN_IDLE_TTL: '1h' });
  });
  after(() => server.close());

  test('401 with WWW-Authenticate: Token error="token_expired", its sentence translated', async () => {
    const account = await createAccount(server);
    server.clock.advance(2 * 3_600_000);
    const response = await server.request('GET', '/account/profile/', { token: account.token, headers: { 'accept-language': 'de' } });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Token error="token_expired"');
    assertLanguage(response, 'de');
    assert.deepEqual(response.body, { detail: 'Das Token ist abgelaufen.' });
    // Gone now: an unknown token, with no reason for machines.
    const again = await server.request('GET', '/account/profile/', { token: account.token });
    assert.equal(again.headers.get('www-authenticate'), 'Token');
    assert.deepEqual(again.body, { detail: english('auth.invalidToken') });
  });
});

describe('429 in the request language, with Retry-After', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ RATE_LIMITS: 'on', RATE_LIMIT_LOGIN_ACCOUNT_IP: '2/5m' });
  });
  after(() => server.close());

  test('failed logins: the wait in seconds, in a plural the language knows', async () => {
    const account = await createAccount(server);
    const attempt = () =>
      server.request('POST', '/auth/login/', {
        body: { username: account.email, password: 'not the password' },
        headers: { 'accept-language': 'fr-CA, en;q=0.5' },
      });
    let response = await attempt();
    for (let i = 0; i < 5 && response.status !== 429; i++) response = await attempt();
    assert.equal(response.status, 429, response.text);
    assertLanguage(response, 'fr');
    const seconds = Number(response.headers.get('retry-after'));
    assert.ok(seconds >= 1);
    assert.deepEqual(response.body, { detail: say('fr', 'auth.tooManyFailedLogins', { seconds }) });
    assert.match(response.body.detail, /^Trop de tentatives de connexion échouées\s; réessayez dans \d+ secondes?\.$/);
  });
});

describe('LANGUAGES and DEFAULT_LANGUAGE', () => {
  test('a language not configured is answered in DEFAULT_LANGUAGE', async () => {
    const server = await startTestServer({ LANGUAGES: 'en,de' });
    try {
      const response = await server.request('GET', '/no/such/route/', { headers: { 'accept-language': 'fr' } });
      assert.equal(response.headers.get('content-language'), 'en');
      assert.deepEqual(response.body, { detail: 'Not found.' });
      const second = await server.request('GET', '/no/such/route/', { headers: { 'accept-language': 'fr, de;q=0.1' } });
      assert.equal(second.headers.get('content-language'), 'de');
    } finally {
      await server.close();
    }
  });

  test('DEFAULT_LANGUAGE=de answers a request without Accept-Language in German', async () => {
    const server = await startTestServer({ DEFAULT_LANGUAGE: 'de' });
    try {
      const response = await server.request('GET', '/account/profile/');
      assert.equal(response.status, 401);
      // fetch sends "Accept-Language: *": any language, so DEFAULT_LANGUAGE.
      const anyLanguage = await server.request('GET', '/account/profile/', { headers: { 'accept-language': '*' } });
      assert.equal(anyLanguage.headers.get('content-language'), 'de');
      assert.equal(response.headers.get('content-language'), 'de');
      assert.deepEqual(response.body, { detail: 'Es wurden keine Zugangsdaten angegeben.' });
    } finally {
      await server.close();
    }
  });
});

describe('the api catalogue', () => {
  test('every key formats in every language, no placeholder left', () => {
    const sample: Record<string, string | number> = {
      seconds: 3,
      limit: 5,
      max: 10,
      min: 8,
      type: 'list',
      method: 'PUT',
      id: 7,
      ids: '1, 2',
      name: 'Example',
      host: 'hooks.example.com',
      address: '10.0.0.1',
      event: 'account.updated',
      size: '1 GiB',
      types: 'string',
      format: 'uri',
      value: 'x',
      reason: 'must be x',
    };
    for (const language of SUPPORTED_LANGUAGES) {
      for (const [key, message] of Object.entries(CATALOGUES.en.api)) {
        const names = [...message.matchAll(/\{\s*(\w+)/g)].map((match) => match[1]!);
        for (const name of names) assert.ok(name in sample, `${key}: no sample value for {${name}}`);
        const text = formatMessage(language, 'api', key, sample);
        assert.ok(text.length > 0, `${language} ${key}`);
        assert.doesNotMatch(text, /[{}]/, `${language} ${key}: ${text}`);
      }
    }
  });

  test('plurals and selects say what they should', () => {
    assert.equal(
      say('de', 'auth.tooManyFailedLogins', { seconds: 1 }),
      'Zu viele fehlgeschlagene Anmeldeversuche; versuchen Sie es in 1 Sekunde erneut.',
    );
    assert.match(say('es', 'emergency.pinLocked', { seconds: 30 }), /dentro de 30 segundos\.$/);
    assert.match(say('fr', 'validation.notAnObject', { type: 'list' }), /une liste\.$/);
    // English keeps its sentences as they were.
    assert.equal(english('auth.tooManyFailedLogins', { seconds: 3600 }), 'Too many failed login attempts; try again in 3600 seconds.');
    assert.equal(english('auth.badTokenHeader'), 'Invalid token header. Use "Authorization: Token <token>".');
  });
});
