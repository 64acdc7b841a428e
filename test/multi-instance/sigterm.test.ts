// One of two instances (real processes on one PostgreSQL database) gets SIGTERM under load:
// every request it had accepted is answered, nothing it answered 201 is lost, it exits 0,
// and the clients carry on against the other instance.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../src/auth/passwords.ts';
import type { Db } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { appUserOf, topicOf, verifiedAccount } from '../helpers/factories.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

type Outcome = { id: string } & ({ status: number; body: string } | { error: string });

let requestCounter = 0;

/**
 * A POST on a connection of its own, so a refused connection and a dropped request tell apart;
 * `id` is its X-Request-Id, which the service logs when the request reaches it.
 */
function post(url: string, path: string, token: string, body: unknown, id = `sigterm-${++requestCounter}`): Promise<Outcome> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const req = request(`${url}${path}`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
        authorization: `Token ${token}`,
        'x-request-id': id,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ id, status: res.statusCode ?? 0, body: text }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ id, error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ id, error: error.code ?? error.message }));
    req.end(payload);
  });
}

describe('SIGTERM of one instance under load', { skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)' }, () => {
  let database: TestDatabase;
  let db: Db;
  let stopping: ServiceProcess;
  let staying: ServiceProcess;
  /** What the stopping instance logs: which requests reached it. */
  const stoppingLog: string[] = [];
  before(async () => {
    database = await createTestDatabase();
    // The clients create items as fast as both instances take them, for as long as the stop
    // takes: the topic's item quota (1,000 by default) must not end the stream of 201s the
    // test waits for.
    const env = { DATABASE_POOL_SIZE: '5', QUOTA_ITEMS_PER_TOPIC: '100000000' };
    stopping = await startServiceProcess(database.url, tempDir('sigterm-a-'), undefined, { ...env, LOG_LEVEL: 'info' }, stoppingLog);
    staying = await startServiceProcess(database.url, tempDir('sigterm-b-'), undefined, env);
    db = openDatabase(database.url);
  });
  after(async () => {
    for (const service of [stopping, staying]) {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
      await service.exited;
    }
    await db.close();
    await database.drop();
  });

  test('requests it accepted are answered, none of its 201s is lost, it exits 0', async () => {
    const now = Date.now();
    const account = await verifiedAccount(db.kysely, { passwordHash: await hashPassword('sigterm-pass-1'), now });
    const appUserId = await appUserOf(db.kysely, account.id, { now });
    const { topicId } = await topicOf(db.kysely, account.id, appUserId);

    const created: number[] = [];
    const fromStopping: Outcome[] = [];
    /** Anything but a 201 from the instance that stays: the waits below end on it, and the test fails. */
    const unexpected: Outcome[] = [];
    let sent = 0;
    let stop = false;
    const client = async (n: number) => {
      while (!stop) {
        const toStopping = (sent++ + n) % 2 === 0 && stopping.child.exitCode === null;
        const outcome = await post(toStopping ? stopping.url : staying.url, `/app/topics/${topicId}/items/`, account.token, {
          name: `item ${sent}`,
          list_content: { entries: [{ text: 'one' }] },
        });
        if (toStopping) fromStopping.push(outcome);
        else if (!('status' in outcome && outcome.status === 201)) unexpected.push(outcome);
        if ('status' in outcome && outcome.status === 201) created.push(JSON.parse(outcome.body).id);
      }
    };
    const clients = Array.from({ length: 6 }, (_, n) => client(n));
    while (fromStopping.length < 30 && unexpected.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    stopping.child.kill('SIGTERM');
    await stopping.exited;
    const afterStop = created.length;
    while (created.length < afterStop + 20 && unexpected.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    stop = true;
    await Promise.all(clients);

    assert.deepEqual(unexpected, [], 'the other instance answers every create with 201');
    assert.equal(stopping.child.exitCode, 0, 'a clean exit');
    // Each request to the stopping instance was answered (201, or 503 once it was closing) or
    // never reached it; none was cut off after the service had it. A connection still in the
    // kernel's queue when the listener closes is reset before the service ever reads it: its
    // request is in no log line, like a refused connection's.
    const reached = new Set(
      stoppingLog.flatMap((line) => {
        const entry = JSON.parse(line) as { reqId?: string; msg?: string };
        return entry.msg === 'incoming request' && entry.reqId ? [entry.reqId] : [];
      }),
    );
    const kinds = new Map<string, number>();
    for (const outcome of fromStopping) {
      const kind =
        'status' in outcome
          ? String(outcome.status)
          : reached.has(outcome.id)
            ? `${outcome.error} after it reached the service`
            : outcome.error;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    for (const kind of kinds.keys()) {
      assert.ok(['201', '503', 'ECONNREFUSED', 'ECONNRESET'].includes(kind), `outcomes: ${JSON.stringify([...kinds])}`);
    }
    assert.ok((kinds.get('201') ?? 0) >= 30);

    const stored = new Set(
      (await db.kysely.selectFrom('items').select('id').where('topic_id', '=', topicId).execute()).map((row) => row.id),
    );
    const lost = created.filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], 'every 201 is in the database');
    const later = await post(staying.url, `/app/topics/${topicId}/items/`, account.token, { name: 'after', list_content: {} });
    assert.equal('status' in later && later.status, 201, 'the other instance carries on');
  });
});
