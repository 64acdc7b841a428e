// The Dockerfile, read as text: its base image is an exact Node.js release (the one the project
// pins), and the image carries no link to a workspace folder it does not copy.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

test('the base image is the exact Node.js release package.json pins, not a moving tag', () => {
  const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1];
  const pinned = String(packageJson.devDependencies.node).replace(/^\^/, '');
  assert.match(pinned, /^\d+\.\d+\.\d+$/);
  assert.equal(image, `node:${pinned}-bookworm-slim`);
});

test("the production dependencies lose npm's links to workspaces, which the image does not hold", () => {
  const install = /^RUN npm ci --omit=dev .*$/m.exec(dockerfile)?.[0] ?? '';
  const finalStage = dockerfile.split(/^FROM \$\{NODE_IMAGE\}$/m).at(-1)!;
  for (const workspace of packageJson.workspaces as string[]) {
    const name = JSON.parse(readFileSync(join(ROOT, workspace, 'package.json'), 'utf8')).name as string;
    assert.ok(!new RegExp(`^COPY .*\\b${workspace}\\b`, 'm').test(finalStage), `the image copies no ${workspace}/`);
    assert.match(install, new RegExp(`rm (-f )?node_modules/${name}\\b`), `node_modules/${name} -> ../${workspace} is removed`);
  }
});
