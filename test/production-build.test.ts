// The production build (`npm run build`: an esbuild bundle, with some packages left in
// node_modules) runs what depends on how it was built: the password-hashing thread, the
// packages imported on first use, the documentation pages with their static files, and the
// command-line tools. The other tests run the sources. Then the production install itself,
// as the Dockerfile and docs/production.md make it: `npm ci --omit=dev` in a clean folder
// with the built dist/ beside it, and nothing of the project's own node_modules.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { build } from '../scripts/build.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { mailFiles } from './helpers/mail-files.ts';
import { testMediaStorageEnv } from './helpers/media-storage.ts';
import { requester, type TestServer } from './helpers/server.ts';
import { startServiceProcess, type ServiceProcess } from './helpers/service-process.ts';
import { keyInText } from './helpers/smtp-sink.ts';
import { png, uploadForm } from './media/media-fixtures.ts';
import { tempDir } from './helpers/temp-dir.ts';

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
    dataDir = tempDir('profile-service-build-');
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

  test('the backup and restore commands: a backup of the running service, restored into a fresh database', async () => {
    const backups = tempDir('profile-service-build-backups-');
    // The service's own media store (disk, or the suite's S3 server with its settings).
    const mediaEnv = await testMediaStorageEnv(dataDir);
    const cli = (script: string, env: Record<string, string>, ...args: string[]) =>
      run(process.execPath, [join(outdir, 'cli', script), ...args], {
        cwd: dataDir,
        env: { PATH: process.env.PATH, ...mediaEnv, BACKUP_KEY: Buffer.alloc(32, 3).toString('base64'), ...env },
      });
    const backup = await cli('backup.js', { DATABASE_URL: database.url }, backups);
    assert.match(backup.stdout, /^Backup backup-\S+ written to/);
    const fresh = tempDir('profile-service-build-restored-');
    const target = await createTestDatabase();
    try {
      const restore = await cli('restore.js', { DATABASE_URL: target.url, MEDIA_STORAGE: `fs:${join(fresh, 'media')}` }, backups);
      assert.match(restore.stdout, /^Restored backup-/);
    } finally {
      await target.drop();
    }
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

describe('production install in a clean folder (npm ci --omit=dev and the built dist/)', () => {
  let folder: string;
  let database: TestDatabase;
  let service: ServiceProcess;

  before(async () => {
    folder = tempDir('profile-service-install-');
    for (const file of ['package.json', 'package-lock.json', 'web/package.json']) {
      mkdirSync(dirname(join(folder, file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(folder, file));
    }
    // From npm's cache when it holds the packages, as a machine that installed before would.
    await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: folder,
      env: { ...process.env, npm_config_loglevel: 'error' },
      maxBuffer: 16 * 1024 * 1024,
    });
    await build(join(folder, 'dist'));
    database = await createTestDatabase();
    service = await startServiceProcess(database.url, join(folder, 'data'), [join(folder, 'dist/main.js')], { LOG_FORMAT: 'json' });
  });
  after(async () => {
    if (service?.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await database?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  test('no development package is installed', async () => {
    const { stdout } = await run('npm', ['ls', '--omit=dev', '--depth=0', '--json'], { cwd: folder, maxBuffer: 16 * 1024 * 1024 });
    const installed = Object.keys(JSON.parse(stdout).dependencies ?? {});
    for (const devOnly of ['esbuild', 'typescript', 'tsx', '@biomejs/biome', 'vite']) assert.ok(!installed.includes(devOnly), devOnly);
    assert.ok(installed.includes('better-sqlite3'));
  });

  test('serves /health, the web client at / and the documentation at /docs', async () => {
    const health = await fetch(`${service.url}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const home = await fetch(`${service.url}/`);
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await home.text(), /<script[^>]+src="\/assets\//);
    const docs = await fetch(`${service.url}/docs/`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
    const openapi = await fetch(`${service.url}/openapi.json`);
    assert.equal(openapi.status, 200);
  });
});
