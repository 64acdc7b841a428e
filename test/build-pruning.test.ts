// `npm start` builds each time into dist-builds/. A restart loop used to fill the disk: every
// build (11 MB) was kept for a day. A build now leaves only the newest few, whatever their age,
// and those in use: `dist`'s, and any a live process was started from — never one under a
// running instance, however old.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { buildAndSwitch, KEEP_BUILDS } from '../scripts/build.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** A process started from `buildDir`'s main.ts, as the service is from its build; resolves once it runs. */
async function startFrom(buildDir: string): Promise<ChildProcess> {
  const entry = join(buildDir, 'main.ts');
  writeFileSync(
    entry,
    `import { fileURLToPath } from 'node:url';
import { holdOwnBuild } from ${JSON.stringify(join(ROOT, 'src', 'builds-in-use.ts'))};
holdOwnBuild(fileURLToPath(import.meta.url));
console.log('running');
setInterval(() => {}, 60_000);
`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  assert.match(chunk.toString(), /running/);
  return child;
}

describe('pruning builds', () => {
  // Inside the project, as npm start's builds are (the bundle's packages resolve from node_modules).
  const base = join(ROOT, `dist-test-prune-${process.pid}`);
  const children: ChildProcess[] = [];
  after(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    }
    rmSync(base, { recursive: true, force: true });
  });

  test(`a build leaves the newest ${KEEP_BUILDS} and those in use, however young the others`, async () => {
    const builds = join(base, 'dist-builds');
    // What a restart loop left in the last minutes: ten builds.
    const start = Date.now() - 600_000;
    const names = Array.from({ length: 10 }, (_, i) => `${start + i * 1000}-${1000 + i}`);
    for (const name of names) mkdirSync(join(builds, name), { recursive: true });
    // An instance still running from the oldest build, and one killed while running from the
    // next (it could not remove its marker).
    const running = await startFrom(join(builds, names[0]!));
    children.push(running);
    const killed = await startFrom(join(builds, names[1]!));
    children.push(killed);
    killed.kill('SIGKILL');
    await once(killed, 'exit');

    const made = await buildAndSwitch(base);

    const left = readdirSync(builds)
      .filter((name) => !name.startsWith('.'))
      .sort();
    const newest = [...names, basename(made)].slice(-KEEP_BUILDS);
    assert.deepEqual(left, [names[0]!, ...newest]);
    assert.equal(resolve(base, readlinkSync(join(base, 'dist'))), made);
    // The killed instance's marker went with its build; the running one's stays.
    assert.deepEqual(readdirSync(join(builds, '.in-use')), [`${names[0]}.${running.pid}`]);

    // Once that instance has stopped, the next build removes its build too.
    running.kill('SIGKILL');
    await once(running, 'exit');
    await buildAndSwitch(base);
    assert.ok(!existsSync(join(builds, names[0]!)), 'the stopped instance’s build is gone');
    assert.equal(readdirSync(builds).filter((name) => !name.startsWith('.')).length, KEEP_BUILDS);
  });
});
