// The production build (`npm run build`: an esbuild bundle, with some packages left in
// node_modules) runs what depends on how it was built: the password-hashing thread, the
// packages imported on first use, the documentation pages with their static files, and the
// command-line tools. The other tests run the sources.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { build } from '../scripts/build.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { mailFiles } from './helpers/mail-files.ts';
import { requester, type TestServer } from './helpers/server.ts';
import { startServiceProcess, type ServiceProcess } from './helpers/service-process.ts';
import { keyInText } from './helpers/smtp-sink.ts';
import { png, uploadForm } from './media/media-fixtures.ts';

const ROOT = resolve(import.meta.dirname, '..');
const run = promisify(execFile);

describe('production build', () => {
  // Inside the project, so that the packages left out of the bundle resolve from node_modules.
  const outdir = join(ROOT, `dist-test-${process.pid}`);
  let database: TestDatabase;
  let dataDir: string;
  let service: ServiceProcess;
  let request: TestServer['request'];

  before(async () => {
    await build(outdir);
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'profile-service-build-'));
    service = await startServiceProcess(database.url, dataDir, [join(outdir, 'main.js')]);
    request = requester(service.url);
  });
  after(async () => {
    if (service?.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    rmSync(outdir, { recursive: true, force: true });
    await database?.drop();
  });

  test('register, verify with the e-mailed key, log in, upload an image, read the profile', async () => {
    const email = 'built@example.com';
    const password = 'a long and unusual passphrase';
    assert.equal((await request('POST', '/auth/register/', { body: { email, password } })).status, 201);
    const [mail] = await mailFiles(join(dataDir, 'mail'), 1);
    const key = keyInText(mail!, 'the verification e-mail');
    const verified = await request('POST', '/account/verify-email/', { body: { key, password } });
    assert.equal(verified.status, 200, verified.text);
    const login = await request('POST', '/auth/login/', { body: { username: email, password } });
    assert.equal(login.status, 200, login.text);
    const token = login.body.token as string;

    const appUser = await request('POST', '/app/users/', { token, body: {} });
    assert.equal(appUser.status, 201, appUser.text);
    const media = await request('POST', `/app/users/${appUser.body.id}/gallery/`, {
      token,
      raw: uploadForm({ name: 'Photo', file: png(), type: 'image/png', filename: 'photo.png' }),
    });
    assert.equal(media.status, 201, media.text);
    assert.equal(media.body.content_type, 'image/png');
    const profile = await request('POST', `/app/users/${appUser.body.id}/profiles/`, { token, body: { name: 'Home' } });
    assert.equal(profile.status, 201, profile.text);
    const detail = await request('GET', `/app/profiles/${profile.body.id}/`, { token });
    assert.equal(detail.status, 200, detail.text);
    assert.equal(detail.body.name, 'Home');
  });

  test('the documentation: /openapi.json and the Swagger UI pages', async () => {
    const openapi = await request('GET', '/openapi.json');
    assert.equal(openapi.status, 200);
    assert.equal(openapi.body.openapi, '3.1.0');
    const docs = await fetch(`${service.url}/docs/`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
    const script = await fetch(`${service.url}/docs/static/swagger-ui-bundle.js`);
    assert.equal(script.status, 200);
    await script.arrayBuffer();
  });

  test('the command-line tools: migrate, outbox stats, seed (whose accounts then log in), accounts', async () => {
    const env = { PATH: process.env.PATH, DATABASE_URL: database.url };
    const node = (script: string, ...args: string[]) =>
      run(process.execPath, [join(outdir, 'cli', script), ...args], { cwd: dataDir, env });
    await node('migrate.js');
    const stats = await node('outbox.js', 'stats');
    assert.match(stats.stdout, /^sent\s+[1-9]/m);
    const seeded = JSON.parse((await node('seed.js', '--accounts', '2', '--quiet', '--json')).stdout);
    assert.equal(seeded.accounts, 2);
    const login = await request('POST', '/auth/login/', { body: { username: 'bench-1@example.com', password: seeded.password } });
    assert.equal(login.status, 200, login.text);
    const found = JSON.parse((await node('accounts.js', 'find', 'bench-1@', '--json')).stdout);
    assert.deepEqual(
      found.map((account: { email: string }) => account.email),
      ['bench-1@example.com'],
    );
    await node('accounts.js', 'disable', 'bench-1@example.com');
    const refused = await request('POST', '/auth/login/', { body: { username: 'bench-1@example.com', password: seeded.password } });
    assert.equal(refused.status, 400, 'the bundled accounts command disabled the account');
  });

  test('on a Node.js older than 22 the entry point says what it needs and exits 1 (it crashed without a word)', async (t) => {
    // The machine's own Node, when it is an old one (this project pins a newer one for npm).
    const old = await run('/usr/bin/node', ['--version']).then(
      ({ stdout }) => stdout.trim(),
      () => undefined,
    );
    if (!old || Number(old.slice(1).split('.')[0]) >= 22) return t.skip(`no Node.js older than 22 at /usr/bin/node (${old ?? 'none'})`);
    const outcome = await run('/usr/bin/node', [join(outdir, 'main.js')], { env: { PATH: process.env.PATH } }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /needs Node\.js 22 or newer; this is Node\.js 20\./);
  });
});
