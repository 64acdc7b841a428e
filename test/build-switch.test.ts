// `npm start` builds before it starts; several at once in one folder, while an instance built
// earlier runs, must break nothing (an instance whose build was replaced under it answered
// register with 500 when it first loaded its hashing thread; concurrent builds read each other's
// half-written files). Each build goes into a directory of its own and `dist` is switched to it
// atomically: the running instance keeps its own files, every new one starts from a whole build.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { lstatSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { buildAndSwitch, KEEP_BUILDS } from '../scripts/build.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { requester } from './helpers/server.ts';
import { startServiceProcess, type ServiceProcess } from './helpers/service-process.ts';
import { tempDir } from './helpers/temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '..');
const run = promisify(execFile);

describe('builds while an instance runs', () => {
  // Inside the project, so that the packages left out of the bundle resolve from node_modules.
  const base = join(ROOT, `dist-test-switch-${process.pid}`);
  let database: TestDatabase;
  const services: ServiceProcess[] = [];

  before(async () => {
    await buildAndSwitch(base);
    database = await createTestDatabase();
  });
  after(async () => {
    for (const service of services) {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
      await service.exited;
    }
    rmSync(base, { recursive: true, force: true });
    await database.drop();
  });

  test('three builds at once leave the running instance working and dist a whole build', async () => {
    const start = () => startServiceProcess(database.url, tempDir('build-switch-'), [join(base, 'dist', 'main.js')]);
    const first = await start();
    services.push(first);
    const firstBuild = readlinkSync(join(base, 'dist'));

    // Three `npm run build`s of this folder at once, each its own process.
    const script = `import('./scripts/build.ts').then((m) => m.buildAndSwitch(${JSON.stringify(base)}))`;
    await Promise.all([1, 2, 3].map(() => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT })));

    assert.ok(lstatSync(join(base, 'dist')).isSymbolicLink());
    assert.notEqual(readlinkSync(join(base, 'dist')), firstBuild, 'dist moved to a newer build');
    // Four builds: the oldest is beyond the newest few, and kept because the instance runs from it.
    const builds = readdirSync(join(base, 'dist-builds')).filter((name) => !name.startsWith('.'));
    assert.ok(builds.includes(basename(firstBuild)), `the running instance's build is kept: ${builds.join(', ')}`);
    assert.ok(builds.length <= KEEP_BUILDS + 1, `the newest ${KEEP_BUILDS} and the one in use: ${builds.join(', ')}`);
    // The first instance hashes for the first time now: its hashing thread comes from its own build.
    const request = requester(first.url);
    const registered = await request('POST', '/auth/register/', {
      body: { email: 'switch@example.com', password: 'violet-lantern-47-quarry' },
    });
    assert.equal(registered.status, 201, registered.text);

    const second = await start();
    services.push(second);
    const login = await requester(second.url)('POST', '/auth/login/', {
      body: { username: 'switch@example.com', password: 'wrong-password-9' },
    });
    assert.equal(login.status, 400, login.text);
  });
});
