// docs/web-client.md: the OpenAPI document names every operation, declares every error response with
// its body schema, and types path ids as integers — while the service still answers an id that
// is not a positive integer with 404, not 400.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UNCLEAN_TEXT as UNCLEAN_TEXT_KEY } from '../../src/http/body-normalisation.ts';
import { createAccount } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { listOperations, type OpenApiDocument, type Operation } from '../fuzz/openapi-walker.ts';
import { ResponseChecker } from '../fuzz/response-checker.ts';
import { english } from '../helpers/english.ts';

const UNCLEAN_TEXT = english(UNCLEAN_TEXT_KEY);

type Json = Record<string, any>;

const DETAIL = { $ref: '#/components/schemas/ErrorDetail' };
/** The one 401 that is not about a token: an emergency link asking for its PIN (docs/emergency-links.md). */
const PIN_REQUIRED = { $ref: '#/components/schemas/PinRequired' };
const ASKS_FOR_PIN = 'GET /public/emergency/{token}/';
const BAD_REQUEST = { anyOf: [{ $ref: '#/components/schemas/FieldErrors' }, DETAIL] };

/** Operations that accept a token without needing one (their document security is public). */
const TOKEN_OPTIONAL = ['POST /auth/register/', 'POST /account/change-password/'];

/** Operations behind a rate limit (docs/api-conventions.md#limits), and the per-account ones (exports, verification e-mails). */
const RATE_LIMITED = [
  'POST /auth/register/',
  'POST /auth/login/',
  'POST /auth/login/mfa/',
  'POST /account/reset-password/',
  'POST /account/change-password/',
  'POST /account/verify-email/',
  'POST /account/emails/',
  'POST /account/emails/{id}/resend-verification/',
  'GET /account/export/',
  'HEAD /account/export/',
  'DELETE /account/',
  'POST /account/mfa/totp/',
  'POST /account/mfa/totp/confirm/',
  'DELETE /account/mfa/totp/',
  'POST /account/mfa/recovery-codes/',
  'GET /public/emergency/{token}/',
  'POST /public/emergency/{token}/',
  'GET /auth/oidc/{name}/start/',
  'POST /auth/oidc/{name}/token/',
  'POST /auth/login/code/',
];

describe('the OpenAPI document', () => {
  let server: TestServer;
  let doc: OpenApiDocument & Json;
  /** [key, the operation object as written in the document]. */
  let operations: [Operation, Json][];

  before(async () => {
    server = await startTestServer();
    const response = await server.request('GET', '/openapi.json');
    assert.equal(response.status, 200);
    doc = response.body;
    operations = listOperations(doc).map((operation) => [operation, doc.paths[operation.path]![operation.method.toLowerCase()]]);
  });
  after(() => server.close());

  function needsToken(operation: Operation, written: Json): boolean {
    // The operators' routes answer a missing or bad token with 404, as if not there (docs/operators.md).
    if (operation.path.startsWith('/admin/')) return false;
    const security: Json[] = written.security ?? doc.security ?? [];
    return security.some((requirement) => 'token' in requirement) || TOKEN_OPTIONAL.includes(operation.key);
  }

  test('every operation has an operationId, unique, and the expected names for the usual ones', () => {
    assert.ok(operations.length >= 80, `only ${operations.length} operations`);
    const seen = new Map<string, string>();
    for (const [operation, written] of operations) {
      const id = written.operationId;
      assert.match(id ?? '', /^[a-z][A-Za-z]+$/, `${operation.key}: operationId ${id}`);
      assert.ok(!seen.has(id), `${operation.key} and ${seen.get(id)} share the operationId ${id}`);
      seen.set(id, operation.key);
    }
    const idOf = (key: string) => operations.find(([operation]) => operation.key === key)?.[1].operationId;
    assert.deepEqual(
      [
        'GET /app/users/',
        'POST /app/users/',
        'GET /app/users/{id}/',
        'PATCH /app/users/{id}/',
        'PUT /app/users/{id}/',
        'DELETE /app/users/{id}/',
        'POST /auth/login/',
        'POST /auth/login/mfa/',
        'GET /account/export/',
        'HEAD /account/export/',
        'GET /media/files/{storage_key}',
        'HEAD /media/files/{storage_key}',
        'DELETE /app/items/{id}/',
      ].map(idOf),
      [
        'listAppUsers',
        'createAppUser',
        'getAppUser',
        'updateAppUser',
        'replaceAppUser',
        'deleteAppUser',
        'login',
        'completeMfaLogin',
        'exportAccount',
        'exportAccountHead',
        'downloadMediaFile',
        'downloadMediaFileHead',
        'deleteItem',
      ],
    );
  });

  test('Fastify’s automatic HEAD routes are not in the document: HEAD appears only where it is declared', () => {
    const heads = operations.filter(([operation]) => operation.method === 'HEAD').map(([operation]) => operation.key);
    assert.deepEqual(heads.sort(), ['HEAD /account/export/', 'HEAD /media/files/{storage_key}']);
  });

  test('every operation declares 503, and the errors it can answer: 401 with a token, 404 with a path id, 400/413/415 with a body, 400 with a query, 429 when limited', () => {
    const missing: string[] = [];
    for (const [operation, written] of operations) {
      const declared = new Set(Object.keys(written.responses));
      const expect = (status: number, why: string) => {
        if (!declared.has(String(status))) missing.push(`${operation.key}: no ${status} (${why})`);
      };
      expect(503, 'every operation');
      if (needsToken(operation, written)) expect(401, 'takes a token');
      if (operation.pathParams.length > 0) expect(404, 'has a path id');
      if (operation.requestBody) for (const status of [400, 413, 415]) expect(status, 'has a body');
      if ((written.parameters ?? []).some((parameter: Json) => parameter.in === 'query')) expect(400, 'has a query');
      if (RATE_LIMITED.includes(operation.key)) expect(429, 'rate-limited');
    }
    const status = (key: string) => Object.keys(operations.find(([operation]) => operation.key === key)![1].responses);
    if (!status('POST /auth/register/').includes('403')) missing.push('POST /auth/register/: no 403');
    if (!status('DELETE /account/emails/{id}/').includes('409')) missing.push('DELETE /account/emails/{id}/: no 409');
    if (!status('POST /account/mfa/totp/').includes('409')) missing.push('POST /account/mfa/totp/: no 409');
    if (!status('GET /media/files/{storage_key}').includes('410')) missing.push('GET /media/files/{storage_key}: no 410');
    assert.deepEqual(missing, []);
  });

  test('a HEAD declares no body in any response, errors included; the service sends none', async () => {
    const heads = operations.filter(([operation]) => operation.method === 'HEAD');
    for (const [operation, written] of heads) {
      for (const [status, response] of Object.entries<Json>(written.responses)) {
        assert.equal(response.content, undefined, `${operation.key} ${status}`);
        assert.ok(response.description, `${operation.key} ${status}: a description`);
      }
    }
    const unauthenticated = await server.request('HEAD', '/account/export/');
    assert.equal(unauthenticated.status, 401);
    assert.equal(unauthenticated.text, '');
    const missing = await server.request('HEAD', '/media/files/no-such-key');
    assert.ok(missing.status >= 400, String(missing.status));
    assert.equal(missing.text, '');
  });

  test('a path answers with or without its trailing slash, as the document says: /health/ too', async () => {
    assert.match(doc.info.description, /with or without its trailing slash/);
    assert.match(doc.paths['/health']!.get.description, /`\/health\/`/);
    for (const path of ['/health', '/health/']) {
      const response = await server.request('GET', path);
      assert.equal(response.status, 200, path);
      assert.deepEqual(new ResponseChecker(doc).check(listOperations(doc).find((o) => o.key === 'GET /health')!, 'GET', response), []);
    }
  });

  test('every error response has a JSON body referring to the shared schemas: ErrorDetail (PinRequired for a link’s PIN), or FieldErrors | ErrorDetail for 400', () => {
    assert.ok(doc.components?.schemas?.ErrorDetail, 'components/schemas/ErrorDetail');
    assert.ok(doc.components?.schemas?.FieldErrors, 'components/schemas/FieldErrors');
    for (const [operation, written] of operations) {
      if (operation.method === 'HEAD') continue;
      for (const [status, response] of Object.entries<Json>(written.responses)) {
        if (Number(status) < 400) continue;
        const content = response.content ?? {};
        assert.deepEqual(Object.keys(content), ['application/json'], `${operation.key} ${status}: ${JSON.stringify(content)}`);
        const expected = status === '400' ? BAD_REQUEST : status === '401' && operation.key === ASKS_FOR_PIN ? PIN_REQUIRED : DETAIL;
        assert.deepEqual(content['application/json'].schema, expected, `${operation.key} ${status}`);
        assert.ok(response.description && response.description !== 'Default Response', `${operation.key} ${status}: a description`);
      }
      const responses = written.responses;
      if (responses['401']) assert.ok(responses['401'].headers?.['WWW-Authenticate'], `${operation.key} 401: WWW-Authenticate`);
      for (const status of ['429', '503']) {
        if (responses[status]) assert.ok(responses[status].headers?.['Retry-After'], `${operation.key} ${status}: Retry-After`);
      }
    }
  });

  test('FieldErrors describes the 400 bodies the service writes: flat, nested, lists of nested (with empty elements), and {"detail"}', () => {
    const checker = new ResponseChecker(doc);
    const validate = checker.validator('400', BAD_REQUEST);
    for (const body of [
      { name: ['This field is required.'], non_field_errors: ['Invalid data.'] },
      { image_content: { media_resource: ['Invalid pk "7" - object does not exist.'] } },
      { list_content: { entries: [{}, { text: ['This field may not be blank.'] }] } },
      { detail: 'Malformed JSON in the request body.' },
    ]) {
      assert.ok(validate(body), `${JSON.stringify(body)}: ${JSON.stringify(validate.errors)}`);
    }
    for (const body of [{ name: 'not a list' }, { name: [1] }, { detail: 'x', extra: 'y' }]) {
      assert.ok(!validate(body), `${JSON.stringify(body)} should not match`);
    }
  });

  test('FieldErrors has a fixed depth, four levels of objects, with no $ref (contract-testing tools stop at a recursive one)', () => {
    assert.doesNotMatch(JSON.stringify(doc.components!.schemas!.FieldErrors), /\$ref/);
    const validate = new ResponseChecker(doc).validator('400 levels', BAD_REQUEST);
    const nested = (levels: number): Json => (levels === 1 ? { text: ['Not a valid string.'] } : { field: nested(levels - 1) });
    const listed = (levels: number): Json => (levels === 1 ? { text: ['x'] } : { entries: [{}, listed(levels - 1)] });
    for (const body of [nested(4), listed(4)]) assert.ok(validate(body), JSON.stringify(body));
    for (const body of [nested(5), listed(5)]) assert.ok(!validate(body), `${JSON.stringify(body)} is deeper than documented`);
  });

  test('an error deeper than four levels in the body is reported at its field on the fourth, as documented', async () => {
    const { token } = await createAccount(server);
    const create = listOperations(doc).find((operation) => operation.key === 'POST /app/users/')!;
    const body = { name: 'Deep', extra: { a: { b: { c: { d: { e: 'nul \u0000 here' } } } } } };
    const response = await server.request('POST', '/app/users/', { token, body });
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(response.body, { extra: { a: { b: { c: [UNCLEAN_TEXT] } } } });
    assert.deepEqual(new ResponseChecker(doc).check(create, 'POST', response), []);
    const inList = await server.request('POST', '/app/users/', {
      token,
      body: { name: 'Deep', extra: [{ a: [{ b: [{ c: { d: ['\u0000'] } }] }] }] },
    });
    assert.equal(inList.status, 400, inList.text);
    assert.deepEqual(inList.body, { extra: [{ a: [{ b: [{ c: [UNCLEAN_TEXT] }] }] }] });
    assert.deepEqual(new ResponseChecker(doc).check(create, 'POST', inList), []);
  });

  test('unclean text where the body has no string (a list of lists) is the type error, in the documented shape', async () => {
    const operation = listOperations(doc).find((o) => o.key === 'POST /auth/passkey/')!;
    const credential = { id: '', rawId: '', type: 'public-key', clientExtensionResults: {} };
    const response = await server.request('POST', '/auth/passkey/', {
      body: { response: { ...credential, response: { clientDataJSON: [[0, 'a\ud800@example.com']] } } },
    });
    assert.equal(response.status, 400, response.text);
    const field = response.body.response?.response?.clientDataJSON;
    assert.ok(Array.isArray(field) && field.every((text: unknown) => typeof text === 'string'), response.text);
    assert.deepEqual(new ResponseChecker(doc).check(operation, 'POST', response), []);
  });

  test('path ids are integers ≥ 1 in the document; other path parameters keep their type', () => {
    let ids = 0;
    for (const [operation, written] of operations) {
      for (const parameter of (written.parameters ?? []) as Json[]) {
        if (parameter.in !== 'path') continue;
        if (parameter.name === 'storage_key' || parameter.name === 'token' || parameter.name === 'name') {
          assert.equal(parameter.schema.type, 'string', operation.key);
          continue;
        }
        // Linking a provider names it where the identity's id goes: a name, with its pattern.
        if (operation.key === 'POST /account/identities/{id}/') {
          assert.equal(parameter.schema.type, 'string', operation.key);
          assert.ok(parameter.schema.pattern, operation.key);
          continue;
        }
        // `id`, or one more id beside it named `<something>_id` (a webhook's delivery).
        assert.ok(parameter.name === 'id' || parameter.name.endsWith('_id'), operation.key);
        assert.equal(parameter.schema.type, 'integer', operation.key);
        assert.equal(parameter.schema.minimum, 1, operation.key);
        ids++;
      }
    }
    assert.ok(ids >= 50, `${ids} path ids`);
  });

  test('the service itself still answers an id that is not a positive integer with 404, and its errors validate against the document', async () => {
    const checker = new ResponseChecker(doc);
    const { token } = await createAccount(server);
    const byKey = new Map(listOperations(doc).map((operation) => [operation.key, operation]));
    for (const id of ['abc', '0', '-1', '1.5', '1e3', '99999999999', '%20']) {
      for (const [method, key] of [
        ['GET', 'GET /app/users/{id}/'],
        ['PATCH', 'PATCH /app/users/{id}/'],
        ['DELETE', 'DELETE /auth/sessions/{id}/'],
      ] as const) {
        const path = key.slice(key.indexOf(' ') + 1).replace('{id}', id);
        const response = await server.request(method, path, { token, ...(method === 'PATCH' ? { body: { name: 'x' } } : {}) });
        assert.equal(response.status, 404, `${method} ${path}`);
        assert.deepEqual(response.body, { detail: 'Not found.' });
        assert.deepEqual(checker.check(byKey.get(key)!, method, response), [], `${method} ${path}`);
      }
    }
    // A 400 about fields, one for a body that is not JSON, and a 401: as declared.
    const create = byKey.get('POST /app/users/')!;
    for (const [options, status] of [
      [{ token, body: { name: 5 } }, 400],
      [{ token, raw: '{"name":', headers: { 'content-type': 'application/json' } }, 400],
      [{ body: {} }, 401],
    ] as const) {
      const response = await server.request('POST', '/app/users/', options);
      assert.equal(response.status, status, response.text);
      assert.deepEqual(checker.check(create, 'POST', response), [], response.text);
    }
  });
});
