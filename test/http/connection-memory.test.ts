// A burst of short connections against a small heap: the service keeps nothing per connection
// once it has closed, so it stays up however many came. The heap's cap is the measure: resident
// memory is not, since V8 and the allocator keep pages they have freed.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// With 2.2 KB kept per connection, 40,000 connections need 88 MB, more than the whole heap of
// 64 MB, of which the service's own use is about 40 MB; without anything kept, they need nothing.
const HEAP_MB = 64;
const CONNECTIONS = 40_000;
const AT_ONCE = 50;

/** One connection: a request that asks the server to close it, read to its end. */
function oneRequest(port: number): Promise<void> {
  return new Promise((done, fail) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.end('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    });
    socket.on('data', () => {});
    socket.once('close', () => done());
    socket.once('error', fail);
  });
}

describe('a burst of connections', () => {
  let database: TestDatabase;
  let dataDir: string;
  let service: ServiceProcess;

  before(async () => {
    database = await createTestDatabase();
    dataDir = tempDir('profile-service-connections-');
    service = await startServiceProcess(database.url, dataDir, [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', 'src/main.ts'], {
      OVERLOAD_EVENT_LOOP_DELAY: '0',
    });
  });
  after(async () => {
    if (service.child.exitCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test(`${CONNECTIONS} connections, each closed after one request, leave the service up`, async () => {
    const port = Number(new URL(service.url).port);
    // Warm up first, so what the service allocates once (compiled routes, pools) is in place.
    for (let i = 0; i < 500; i += AT_ONCE) await Promise.all(Array.from({ length: AT_ONCE }, () => oneRequest(port)));
    let sent = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (sent < CONNECTIONS && service.child.exitCode === null) {
          sent++;
          await oneRequest(port).catch(() => {});
        }
      }),
    );
    assert.equal(service.child.exitCode, null, 'the service exited during the burst');
    const health = await fetch(`${service.url}/health`);
    assert.equal(health.status, 200);
  });
});
