import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { createAccount } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const PROVIDER_ID = 'layer:///providers/0b0c2d1e-aaaa-bbbb-cccc-000000000001';
const KEY_ID = 'layer:///keys/0b0c2d1e-aaaa-bbbb-cccc-000000000002';

function writeKeyFile(pem: string, name = 'messaging.pem'): string {
  const path = join(tempDir('messaging-key-'), name);
  writeFileSync(path, pem);
  return path;
}

function rsaKeyPair(modulusLength = 2048) {
  return generateKeyPairSync('rsa', { modulusLength });
}

describe('POST /auth/messaging/ with messaging configured', () => {
  let server: TestServer;
  let publicKey: KeyObject;
  let otherPublicKey: KeyObject;
  const ttl = 600;

  before(async () => {
    const pair = rsaKeyPair();
    publicKey = pair.publicKey;
    otherPublicKey = rsaKeyPair().publicKey;
    server = await startTestServer({
      MESSAGING_PROVIDER_ID: PROVIDER_ID,
      MESSAGING_KEY_ID: KEY_ID,
      MESSAGING_PRIVATE_KEY_FILE: writeKeyFile(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
      MESSAGING_TOKEN_TTL: String(ttl),
    });
  });
  after(() => server.close());

  test('issues an RS256 identity token: every header field and claim, signed by the configured key', async () => {
    const account = await createAccount(server);
    const nonce = 'c2FtcGxlLW5vbmNlLWZyb20tdGhlLXByb3ZpZGVy';
    const response = await server.request('POST', '/auth/messaging/', { token: account.token, body: { nonce } });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body), ['identity_token']);
    const token: string = response.body.identity_token;

    assert.deepEqual(decodeProtectedHeader(token), { typ: 'JWT', alg: 'RS256', cty: 'layer-eit;v=1', kid: KEY_ID });
    const { payload, protectedHeader } = await jwtVerify(token, publicKey, {
      algorithms: ['RS256'],
      currentDate: new Date(server.clock.now()),
    });
    assert.equal(protectedHeader.alg, 'RS256');
    assert.deepEqual(Object.keys(payload).sort(), ['exp', 'iat', 'iss', 'nce', 'prn']);
    assert.equal(payload.iss, PROVIDER_ID);
    assert.equal(payload.prn, String(account.id));
    assert.equal(payload.nce, nonce);
    assert.equal(payload.iat, Math.floor(server.clock.now() / 1000));
    assert.equal(payload.exp! - payload.iat!, ttl);

    await assert.rejects(jwtVerify(token, otherPublicKey), 'another key does not verify it');
  });

  test('iat follows the clock; the token expires after the TTL', async () => {
    const account = await createAccount(server);
    server.clock.advance(3_600_000);
    const response = await server.request('POST', '/auth/messaging/', { token: account.token, body: { nonce: 'n' } });
    assert.equal(response.status, 201);
    const token: string = response.body.identity_token;
    const { payload } = await jwtVerify(token, publicKey, { currentDate: new Date(server.clock.now()) });
    assert.equal(payload.iat, Math.floor(server.clock.now() / 1000));
    await assert.rejects(
      jwtVerify(token, publicKey, { currentDate: new Date(server.clock.now() + (ttl + 1) * 1000) }),
      (error: Error & { code?: string }) => error.code === 'ERR_JWT_EXPIRED',
    );
  });

  test('the nonce is trimmed like every other string and signed back otherwise unchanged', async () => {
    const account = await createAccount(server);
    const nonce = 'nonce with spaces/+=é';
    const response = await server.request('POST', '/auth/messaging', { token: account.token, body: { nonce: `  ${nonce}\n` } });
    assert.equal(response.status, 201);
    const { payload } = await jwtVerify(response.body.identity_token, publicKey, { currentDate: new Date(server.clock.now()) });
    assert.equal(payload.nce, nonce);
  });

  test('anonymous or bad token: 401 with WWW-Authenticate: Token', async () => {
    for (const token of [undefined, 'not-a-real-token']) {
      const response = await server.request('POST', '/auth/messaging/', { token, body: { nonce: 'abc' } });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), 'Token');
      assert.equal(typeof response.body.detail, 'string');
      assert.equal(response.body.identity_token, undefined);
    }
  });

  test('missing, blank, null or wrong-typed nonce: 400 under nonce', async () => {
    const account = await createAccount(server);
    const cases: Array<[unknown, string]> = [
      [{}, 'This field is required.'],
      [undefined, 'This field is required.'],
      [{ nonce: '' }, 'This field may not be blank.'],
      [{ nonce: '   ' }, 'This field may not be blank.'],
      [{ nonce: null }, 'This field may not be null.'],
      [{ nonce: 123 }, 'Not a valid string.'],
      [{ nonce: ['a'] }, 'Not a valid string.'],
    ];
    for (const [body, message] of cases) {
      const response = await server.request('POST', '/auth/messaging/', { token: account.token, body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(response.body, { nonce: [message] }, JSON.stringify(body));
    }
  });

  test('an over-long nonce is 400; malformed JSON is 400; another method is 405', async () => {
    const account = await createAccount(server);
    const long = await server.request('POST', '/auth/messaging/', { token: account.token, body: { nonce: 'x'.repeat(1025) } });
    assert.equal(long.status, 400);
    assert.ok(Array.isArray(long.body.nonce));
    const malformed = await server.request('POST', '/auth/messaging/', {
      token: account.token,
      raw: '{"nonce": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    const get = await server.request('GET', '/auth/messaging/', { token: account.token });
    assert.equal(get.status, 405);
    assert.match(get.headers.get('allow') ?? '', /POST/);
  });

  test('the endpoint is in the OpenAPI document', async () => {
    const doc = await server.request('GET', '/openapi.json');
    const operation = doc.body.paths['/auth/messaging/']?.post;
    assert.ok(operation, 'POST /auth/messaging/ documented');
    assert.ok(operation.responses['201']);
  });
});

describe('POST /auth/messaging/ without messaging configured', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('503 {"detail"} for an authenticated caller', async () => {
    const account = await createAccount(server);
    const response = await server.request('POST', '/auth/messaging/', { token: account.token, body: { nonce: 'abc' } });
    assert.equal(response.status, 503);
    assert.deepEqual(Object.keys(response.body), ['detail']);
    assert.match(response.body.detail, /not configured/);
  });

  test('still 401 for an anonymous caller', async () => {
    const response = await server.request('POST', '/auth/messaging/', { body: { nonce: 'abc' } });
    assert.equal(response.status, 401);
  });
});

describe('messaging key at start-up', () => {
  const messagingEnv = (file: string) => ({
    MESSAGING_PROVIDER_ID: PROVIDER_ID,
    MESSAGING_KEY_ID: KEY_ID,
    MESSAGING_PRIVATE_KEY_FILE: file,
  });

  test('a PKCS#1 RSA key ("BEGIN RSA PRIVATE KEY") is accepted too', async () => {
    const pair = rsaKeyPair();
    const pem = pair.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
    assert.match(pem, /BEGIN RSA PRIVATE KEY/);
    const server = await startTestServer(messagingEnv(writeKeyFile(pem)));
    try {
      const account = await createAccount(server);
      const response = await server.request('POST', '/auth/messaging/', { token: account.token, body: { nonce: 'abc' } });
      assert.equal(response.status, 201);
      const { payload } = await jwtVerify(response.body.identity_token, pair.publicKey, { currentDate: new Date(server.clock.now()) });
      assert.equal(payload.exp! - payload.iat!, 300, 'MESSAGING_TOKEN_TTL defaults to 300 seconds');
    } finally {
      await server.close();
    }
  });

  const bad: Array<[string, () => string, RegExp]> = [
    ['an unreadable (missing) file', () => join(tmpdir(), 'no-such-dir-for-messaging', 'key.pem'), /cannot be read \(ENOENT\)/],
    ['a file that is not a key', () => writeKeyFile('hello, I am not a key\n'), /does not hold an unencrypted private key in PEM/],
    [
      'a public key',
      () => writeKeyFile(rsaKeyPair().publicKey.export({ type: 'spki', format: 'pem' }) as string),
      /does not hold an unencrypted private key/,
    ],
    [
      'an encrypted private key',
      () =>
        writeKeyFile(
          rsaKeyPair().privateKey.export({
            type: 'pkcs8',
            format: 'pem',
            cipher: 'aes-256-cbc',
            passphrase: 'secret',
          }) as string,
        ),
      /does not hold an unencrypted private key/,
    ],
    [
      'an EC key',
      () => writeKeyFile(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
      /holds a key of type "ec"; RS256 needs an RSA private key/,
    ],
    [
      'a 1024-bit RSA key',
      () => writeKeyFile(rsaKeyPair(1024).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
      /1024-bit RSA key; RS256 needs at least 2048 bits/,
    ],
  ];
  // The key is read before the database is opened, so these never reach a database.
  const configWith = (file: string) =>
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: `sqlite:${join(tempDir('messaging-db-'), 'test.db')}`,
      ...messagingEnv(file),
    });
  for (const [what, file, message] of bad) {
    test(`${what} stops start-up with a message naming MESSAGING_PRIVATE_KEY_FILE`, async () => {
      await assert.rejects(startServer(configWith(file())), (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /^MESSAGING_PRIVATE_KEY_FILE "/);
        assert.match(error.message, message);
        return true;
      });
    });
  }

  test('npm start (src/main.ts) exits non-zero with that message on stderr', async () => {
    const file = writeKeyFile('-----BEGIN PRIVATE KEY-----\nnot base64 at all\n-----END PRIVATE KEY-----\n');
    const dir = tempDir('messaging-main-');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        LOG_LEVEL: 'silent',
        DATABASE_URL: `sqlite:${join(dir, 'test.db')}`,
        MAIL_DIR: join(dir, 'mail'),
        MEDIA_STORAGE: `fs:${join(dir, 'media')}`,
        ...messagingEnv(file),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A server that started despite the bad key would never exit: stop it and fail.
    const timer = setTimeout(() => child.kill(), 20_000);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(timer);
    assert.notEqual(code, 0);
    assert.notEqual(code, null, 'the process exited by itself');
    assert.match(stderr, /MESSAGING_PRIVATE_KEY_FILE ".*" does not hold an unencrypted private key in PEM/);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  });
});
