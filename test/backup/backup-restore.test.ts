// `npm run backup` and `npm run restore` against a service under load: the backup is taken
// while writes (profiles and picture uploads) keep arriving over HTTP; it is restored into a
// fresh folder, a new service starts on the restored data, and every write acknowledged before
// the backup began is there, every picture byte for byte. Then the refusals: a location that
// holds data, a damaged file, a manifest changed or signed with another BACKUP_KEY, a database
// a running service has open. On the suite's database (SQLite, or PostgreSQL through pg_dump
// and pg_restore with TEST_DATABASE_URL), with the media wherever the suite keeps them (disk,
// or S3 with TEST_MEDIA_STORAGE=s3).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import type { MediaStorageSpec } from '../../src/storage/open-media-storage.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { sharedS3Server } from '../helpers/s3-server.ts';
import { requester, startTestServer, type TestServer } from '../helpers/server.ts';
import { startServiceProcess } from '../helpers/service-process.ts';
import { insertAccount } from '../../src/accounts/core/account-queries.ts';
import { issueToken } from '../../src/auth/token-queries.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { appUserOf } from '../helpers/factories.ts';
import { createAppUser, png, upload, uploadForm } from '../media/media-fixtures.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const BACKUP_KEY = Buffer.alloc(32, 1).toString('base64');
const OTHER_KEY = Buffer.alloc(32, 2).toString('base64');

const DATABASE_FILE = onPostgres ? 'database.pgdump' : 'database.sqlite';
const databases: TestDatabase[] = [];

/** A fresh place to restore into: a new database (a SQLite file, or a new PostgreSQL database) and an empty media folder. */
async function freshTarget(): Promise<{ env: Record<string, string>; dir: string; holdsDatabase(): Promise<boolean> }> {
  const dir = tempDir('profile-service-restored-');
  const database = await createTestDatabase();
  databases.push(database);
  return {
    dir,
    env: { DATABASE_URL: database.url, MEDIA_STORAGE: `fs:${join(dir, 'data/media')}`, SPOOL_DIR: join(dir, 'spool') },
    async holdsDatabase() {
      if (!onPostgres) return existsSync(database.url.slice('sqlite:'.length));
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return (await client.query("select 1 from pg_tables where schemaname = 'public'")).rows.length > 0;
      } finally {
        await client.end();
      }
    },
  };
}

/** Every folder and file under `root` with its permission bits, e.g. ["media/x.png", 0o600]. */
function modesUnder(root: string): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    found.push([path.slice(root.length + 1), statSync(path).mode & 0o777]);
  }
  return found;
}

/** MEDIA_STORAGE and the S3 settings a command needs to reach the same store as `spec`. */
function mediaEnv(spec: MediaStorageSpec): Record<string, string> {
  if (spec.kind === 'fs') return { MEDIA_STORAGE: `fs:${spec.directory}` };
  return {
    MEDIA_STORAGE: `s3://${spec.bucket}/${spec.prefix}`,
    ...(spec.endpoint && { S3_ENDPOINT: spec.endpoint }),
    S3_FORCE_PATH_STYLE: String(spec.forcePathStyle),
    AWS_REGION: spec.region,
    ...(spec.credentials && { AWS_ACCESS_KEY_ID: spec.credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: spec.credentials.secretAccessKey }),
  };
}

/** Runs `npm run <command>`'s script with these settings; answers its exit status and output. */
async function command(
  name: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const cwd = tempDir('profile-service-cli-'); // no .env of the project's
  return run(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli', `${name}.ts`), ...args], {
    cwd,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

interface Written {
  profiles: Map<number, string>;
  pictures: Map<number, Buffer>;
}

/** Writers that keep creating profiles and uploading pictures until stopped; `acknowledged` copies what has been answered 201 so far. */
function keepWriting(server: TestServer, account: TestAccount, appUserId: number, writers = 3) {
  const written: Written = { profiles: new Map(), pictures: new Map() };
  const failures: string[] = [];
  let stopping = false;
  let n = 0;
  const loops = Array.from({ length: writers }, async (_, writer) => {
    while (!stopping) {
      const i = n++;
      if (i % 3 === 2) {
        const bytes = png(100 + i * 7 + writer);
        const answer = await server.request('POST', `/app/users/${appUserId}/gallery/`, {
          token: account.token,
          raw: uploadForm({ name: `Picture ${i}`, file: bytes, type: 'image/png', filename: `p${i}.png` }),
        });
        if (answer.status === 201) written.pictures.set(answer.body.id, bytes);
        else failures.push(`upload ${answer.status} ${answer.text}`);
      } else {
        const name = `Profile ${i}`;
        const answer = await server.request('POST', `/app/users/${appUserId}/profiles/`, { token: account.token, body: { name } });
        if (answer.status === 201) written.profiles.set(answer.body.id, name);
        else failures.push(`profile ${answer.status} ${answer.text}`);
      }
    }
  });
  return {
    written,
    failures,
    acknowledged: (): Written => ({ profiles: new Map(written.profiles), pictures: new Map(written.pictures) }),
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/** Starts a service on restored data and checks that everything in `expected` is there, pictures byte for byte. */
async function checkRestored(env: Record<string, string>, token: string, expected: Written): Promise<void> {
  const restored = await startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', RATE_LIMITS: 'off', LOG_LEVEL: 'silent', OVERLOAD_EVENT_LOOP_DELAY: '0', ...env }),
  );
  try {
    const request = requester(restored.address);
    for (const [id, name] of expected.profiles) {
      const profile = await request('GET', `/app/profiles/${id}/`, { token });
      assert.equal(profile.status, 200, `profile ${id}, acknowledged before the backup began: ${profile.text}`);
      assert.equal(profile.body.name, name);
    }
    for (const [id, bytes] of expected.pictures) {
      const media = await request('GET', `/app/media-resources/${id}/`, { token });
      assert.equal(media.status, 200, `picture ${id}, acknowledged before the backup began: ${media.text}`);
      const url = new URL(media.body.file as string);
      const file = await fetch(restored.address + url.pathname + url.search);
      assert.equal(file.status, 200, `the file of picture ${id}`);
      assert.deepEqual(Buffer.from(await file.arrayBuffer()), bytes, `the bytes of picture ${id}`);
    }
  } finally {
    // Every check is done: drop this process's keep-alive connections at once. Closing waits
    // for connections that are not idle at that moment, and one whose last answer is still
    // finishing would hold the close for the keep-alive timeout (72 s).
    restored.app.server.closeAllConnections();
    await restored.close();
  }
}

describe(`backup and restore (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  let server: TestServer;
  let account: TestAccount;
  let appUserId: number;
  let serviceEnv: Record<string, string>;

  before(async () => {
    server = await startTestServer({ QUOTA_PROFILES_PER_USER: '1000000', QUOTA_MEDIA_PER_USER: '1000000' });
    account = await createAccount(server);
    appUserId = await createAppUser(server, account);
    const config = server.server.ctx.config;
    serviceEnv = {
      DATABASE_URL: config.databaseUrl,
      ...mediaEnv(config.mediaStorage),
      SPOOL_DIR: join(server.dataDir, 'spool'),
      BACKUP_KEY,
    };
  });
  after(async () => {
    await server?.close();
    for (const database of databases) await database.drop();
  });

  const targets = [
    { name: 'a folder', location: async () => tempDir('profile-service-backups-'), env: async () => ({}) },
    {
      name: 'an S3 bucket',
      location: async () => `s3://${(await sharedS3Server()).bucket}/backups-${process.pid}-${Date.now()}/`,
      env: async () => {
        const { MEDIA_STORAGE: _, ...s3 } = (await sharedS3Server()).env('unused');
        return s3;
      },
    },
  ];

  for (const target of targets) {
    test(`a backup to ${target.name} taken while writes run restores every write acknowledged before it began`, async () => {
      const location = await target.location();
      const targetEnv = await target.env();
      // On S3 media, the suite's store and the backup target are the same server: its settings serve both.
      const env = { ...targetEnv, ...serviceEnv };
      const writing = keepWriting(server, account, appUserId);
      // Some of each kind of write first, so that the backup has something to hold.
      while (writing.written.profiles.size < 6 || writing.written.pictures.size < 3) await new Promise((r) => setTimeout(r, 10));
      const before = writing.acknowledged();
      const backup = await command('backup', [location], env);
      const during = writing.acknowledged();
      await writing.stop();
      assert.deepEqual(writing.failures.slice(0, 3), []);
      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stdout, /Backup backup-\S+ written to/);
      // Not a test of nothing: there were writes of both kinds before it began.
      assert.ok(before.profiles.size > 0 && before.pictures.size > 0);
      assert.ok(during.profiles.size + during.pictures.size >= before.profiles.size + before.pictures.size);

      const fresh = await freshTarget();
      const restoredEnv = { ...targetEnv, BACKUP_KEY, ...fresh.env };
      const restore = await command('restore', [location], restoredEnv);
      assert.equal(restore.code, 0, restore.stderr);
      assert.match(restore.stdout, /^Restored backup-/);
      await checkRestored(restoredEnv, account.token, before);

      // Once there is data there, a second restore is refused, and with --force it goes ahead.
      const again = await command('restore', [location], restoredEnv);
      assert.equal(again.code, 1);
      assert.match(
        again.stderr,
        /^Not restoring over the database .* which already hold data: restore into a fresh location, or add --force/,
      );
      const forced = await command('restore', [location, '--force'], restoredEnv);
      assert.equal(forced.code, 0, forced.stderr);
      await checkRestored(restoredEnv, account.token, before);
    });
  }

  test('the manifest lists every file with its size and SHA-256; a damaged file stops the restore', async () => {
    const location = tempDir('profile-service-backups-');
    const backup = await command('backup', [location], serviceEnv);
    assert.equal(backup.code, 0, backup.stderr);
    const [name] = readdirSync(location);
    const folder = join(location, name!);
    const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'));
    assert.equal(manifest.format, 'profile-service-backup/2');
    assert.match(manifest.schema_version, /^\d{4}-/);
    assert.ok(!Number.isNaN(Date.parse(manifest.created_at)));
    assert.equal(manifest.sealing_key_inside, true, 'no MFA_ENCRYPTION_KEY: the sealing key is in the database');
    for (const file of manifest.files) {
      const bytes = readFileSync(join(folder, file.path));
      assert.equal(bytes.length, file.size, file.path);
    }
    assert.ok(manifest.files.some((file: { path: string }) => file.path.startsWith('media/')));

    const picture = manifest.files.find((file: { path: string }) => file.path.startsWith('media/'));
    writeFileSync(join(folder, picture.path), Buffer.from('not the picture'));
    const fresh = await freshTarget();
    const restoredEnv = { ...fresh.env, BACKUP_KEY };
    // The backup folder itself names one backup, as the folder of backups names the newest.
    const restore = await command('restore', [folder], restoredEnv);
    assert.equal(restore.code, 1);
    assert.match(restore.stderr, new RegExp(`${picture.path} in the backup is damaged`));
    assert.equal(await fresh.holdsDatabase(), false, 'no database is put in place from a damaged backup');
  });

  test('a backup is readable by its owner only: folders 0700, files 0600, and so is the restored database', async () => {
    const location = join(tempDir('profile-service-backups-'), 'made-by-backup');
    const picture = await upload(server, account.token, appUserId, { name: 'Private', file: png(), type: 'image/png' });
    assert.equal(picture.status, 201, picture.text);
    const backup = await command('backup', [location], serviceEnv);
    assert.equal(backup.code, 0, backup.stderr);
    assert.equal(statSync(location).mode & 0o777, 0o700, 'the folder of backups, made by the command');
    const modes = modesUnder(location);
    assert.ok(
      modes.some(([path]) => path.endsWith('manifest.hmac')) &&
        modes.some(([path]) => path.startsWith(join(readdirSync(location)[0]!, 'media'))),
    );
    for (const [path, mode] of modes) {
      const isFolder = statSync(join(location, path)).isDirectory();
      assert.equal(mode.toString(8), isFolder ? '700' : '600', path);
    }
    const fresh = await freshTarget();
    const restore = await command('restore', [location], { ...fresh.env, BACKUP_KEY });
    assert.equal(restore.code, 0, restore.stderr);
    if (!onPostgres) {
      const database = fresh.env.DATABASE_URL!.slice('sqlite:'.length);
      assert.equal((statSync(database).mode & 0o777).toString(8), '600');
      assert.equal((statSync(dirname(database)).mode & 0o777).toString(8), '700');
    }
  });

  test('the manifest is authenticated by BACKUP_KEY: a database changed and listed anew, another key, no MAC are refused', async () => {
    const location = tempDir('profile-service-backups-');
    const backup = await command('backup', [location], serviceEnv);
    assert.equal(backup.code, 0, backup.stderr);
    const folder = join(location, readdirSync(location)[0]!);
    const fresh = await freshTarget();
    const restoredEnv = { ...fresh.env, BACKUP_KEY };

    // Without a key there is nothing to check the backup with, nor to make one with.
    const { BACKUP_KEY: _, ...noKey } = restoredEnv;
    const unkeyed = await command('restore', [location], noKey);
    assert.equal(unkeyed.code, 1);
    assert.match(unkeyed.stderr, /^Not restoring: backups need BACKUP_KEY/);
    const { BACKUP_KEY: __, ...serviceNoKey } = serviceEnv;
    const refused = await command('backup', [location], serviceNoKey);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^Not backing up: backups need BACKUP_KEY, .*openssl rand -base64 32/);
    assert.equal(readdirSync(location).length, 1, 'nothing was written');

    // Made with one key, restored with another: refused. The old key after the new one restores it.
    const otherKey = await command('restore', [location], { ...restoredEnv, BACKUP_KEY: OTHER_KEY });
    assert.equal(otherKey.code, 1);
    assert.match(otherKey.stderr, /manifest\.json does not match its MAC under BACKUP_KEY/);

    // A database put in and listed in the manifest with its new size and SHA-256.
    const manifestPath = join(folder, 'manifest.json');
    const original = readFileSync(manifestPath, 'utf8');
    const databasePath = join(folder, DATABASE_FILE);
    const originalDatabase = readFileSync(databasePath);
    const changed = Buffer.concat([originalDatabase, Buffer.alloc(4096)]);
    writeFileSync(databasePath, changed);
    const manifest = JSON.parse(original);
    const entry = manifest.files.find((file: { path: string }) => file.path === DATABASE_FILE);
    entry.size = changed.length;
    entry.sha256 = createHash('sha256').update(changed).digest('hex');
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    const tampered = await command('restore', [location], restoredEnv);
    assert.equal(tampered.code, 1);
    assert.match(tampered.stderr, /^Not restoring .*: its manifest\.json does not match its MAC under BACKUP_KEY/);
    assert.equal(await fresh.holdsDatabase(), false, 'nothing is put in place from a changed backup');

    // No MAC at all.
    writeFileSync(manifestPath, original);
    writeFileSync(databasePath, originalDatabase);
    const mac = readFileSync(join(folder, 'manifest.hmac'));
    rmSync(join(folder, 'manifest.hmac'));
    const unsigned = await command('restore', [location], restoredEnv);
    assert.equal(unsigned.code, 1);
    assert.match(unsigned.stderr, /it has no manifest\.hmac/);

    writeFileSync(join(folder, 'manifest.hmac'), mac);
    const rotated = await command('restore', [location], { ...restoredEnv, BACKUP_KEY: `${OTHER_KEY},${BACKUP_KEY}` });
    assert.equal(rotated.code, 0, rotated.stderr);
  });

  test('restore refuses, even with --force, a database a running service has open; stopped, it restores', async () => {
    const location = tempDir('profile-service-backups-');
    assert.equal((await command('backup', [location], serviceEnv)).code, 0);
    const dataDir = tempDir('profile-service-running-');
    const target = await createTestDatabase();
    databases.push(target);
    const databaseUrl = target.url;
    // An owner with an app user and a token, written straight into the database before the service opens it.
    const db = openDatabase(databaseUrl);
    let token: string;
    let appUser: number;
    try {
      await migrateToLatest(db);
      const accountId = await insertAccount(db.kysely, { firstName: 'Kim', lastName: 'Running', passwordHash: 'unused', now: 0 });
      appUser = await appUserOf(db.kysely, accountId, { name: 'Kim', now: 0 });
      token = await issueToken(db.kysely, accountId, Date.now(), 'password');
    } finally {
      await db.close();
    }
    const service = await startServiceProcess(databaseUrl, dataDir);
    const restoredEnv = { DATABASE_URL: databaseUrl, MEDIA_STORAGE: `fs:${join(dataDir, 'restored-media')}`, BACKUP_KEY };
    try {
      const restore = await command('restore', [location, '--force'], restoredEnv);
      assert.equal(restore.code, 1, restore.stdout);
      assert.match(restore.stderr, /^Not restoring: the database .* is in use .* Stop the service.*, then restore\./);
      // The service keeps its database: a write after the refusal is there to read.
      const request = requester(service.url);
      const created = await request('POST', `/app/users/${appUser}/profiles/`, { token, body: { name: 'After the refusal' } });
      assert.equal(created.status, 201, created.text);
      const read = await request('GET', `/app/profiles/${created.body.id}/`, { token });
      assert.equal(read.status, 200, read.text);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    const restore = await command('restore', [location, '--force'], restoredEnv);
    assert.equal(restore.code, 0, restore.stderr);
  });

  test('a backup restores only into a database of its kind', async () => {
    const location = tempDir('profile-service-backups-');
    assert.equal((await command('backup', [location], serviceEnv)).code, 0);
    const other = onPostgres ? `sqlite:${join(tempDir('profile-service-restored-'), 'db.sqlite')}` : 'postgres://nobody@127.0.0.1:1/none';
    const restore = await command('restore', [location], { DATABASE_URL: other, BACKUP_KEY });
    assert.equal(restore.code, 1);
    const [made, named] = onPostgres ? ['postgresql', 'sqlite'] : ['sqlite', 'postgresql'];
    assert.match(restore.stderr, new RegExp(`^The backup holds a ${made} database and DATABASE_URL names a ${named} one`));
  });

  test('--keep N leaves the newest N backups', async () => {
    const location = tempDir('profile-service-backups-');
    for (let i = 0; i < 3; i++) assert.equal((await command('backup', [location], serviceEnv)).code, 0);
    const before = readdirSync(location).sort();
    assert.equal(before.length, 3);
    const kept = await command('backup', [location, '--keep', '2'], serviceEnv);
    assert.equal(kept.code, 0, kept.stderr);
    const after = readdirSync(location).sort();
    assert.equal(after.length, 2);
    assert.deepEqual(after[0], before[2], 'the newest of the earlier ones is kept, with the new one');
  });
});

describe('backup refusals', () => {
  test('a database that cannot be reached fails the backup with the reason', async () => {
    const backup = await command('backup', [tempDir('profile-service-backups-')], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      BACKUP_KEY,
    });
    assert.equal(backup.code, 1);
    assert.match(backup.stderr, /^Backup failed: .*ECONNREFUSED/);
  });

  test('a location that is no backup is refused, and bad usage prints the usage', async () => {
    const empty = tempDir('profile-service-backups-');
    const fresh = tempDir('profile-service-restored-');
    const restore = await command('restore', [empty], {
      BACKUP_KEY,
      DATABASE_URL: `sqlite:${join(fresh, 'db.sqlite')}`,
      MEDIA_STORAGE: `fs:${join(fresh, 'media')}`,
    });
    assert.equal(restore.code, 1);
    assert.match(restore.stderr, /There is no backup at/);
    const usage = await command('backup', [], {});
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /Usage:/);
  });
});
