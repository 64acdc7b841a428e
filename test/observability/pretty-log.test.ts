// LOG_FORMAT=pretty, what a developer's terminal shows: one line a request, with the secrets of
// its URL redacted, where Fastify's own two lines printed about fifteen.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { waitFor } from '../helpers/wait.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let database: TestDatabase;
let dataDir: string;
let service: ServiceProcess;
const lines: string[] = [];

before(async () => {
  database = await createTestDatabase();
  dataDir = tempDir('profile-service-pretty-');
  service = await startServiceProcess(database.url, dataDir, undefined, { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' }, lines);
});
after(async () => {
  service.child.kill('SIGKILL');
  await service.exited;
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a request is one line: method, path, status and time, its secrets redacted', async () => {
  const response = await fetch(`${service.url}/verify-email?key=secret-key-123`);
  await response.arrayBuffer();
  await waitFor(async () => lines.some((line) => line.includes('GET /verify-email')), 'the request logged');
  const about = lines.filter((line) => line.includes('/verify-email') || /incoming request|request completed|reqId/.test(line));
  assert.equal(about.length, 1, about.join('\n'));
  assert.match(about[0]!, /INFO: GET \/verify-email\?key=<redacted> \d{3} \d+\.\d ms$/);
  assert.ok(!lines.some((line) => line.includes('secret-key-123')), 'the key is nowhere in the log');
});
