// The real service (a child process) under load, with a TCP proxy between it and PostgreSQL
// that resets, refuses and stalls connections. The process never exits; every request is
// answered within a bound far above the database timeouts; while the database is away the
// answers are 503 + Retry-After (or normal ones), never 500; after restore the service answers
// normally again by itself; and no create answered 201 is lost.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test, type TestContext } from 'node:test';
import { hashPassword } from '../../src/auth/passwords.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createTestDatabase, onPostgres, type TestDatabase } from '../helpers/database.ts';
import { appUserOf, topicOf, verifiedAccount } from '../helpers/factories.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { Load, type LoadTarget } from './load.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** Short, so that faults show quickly: a stalled query is given up after 1 s + 1 s. */
const SERVICE_ENV = {
  DATABASE_CONNECT_TIMEOUT: '1s',
  DATABASE_QUERY_TIMEOUT: '1s',
  DATABASE_POOL_SIZE: '5',
  QUOTA_ITEMS_PER_TOPIC: '1000000',
};
/** "Answered" versus "hung": far above any sum of the timeouts above, even on a busy machine. */
const ANSWER_BOUND_MS = 15_000;
const CONCURRENCY = 12;
const PASSWORD = 'violet-lantern-47-quarry';

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition()); ) {
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function seed(databaseUrl: string): Promise<Omit<LoadTarget, 'url'>> {
  const db = openDatabase(databaseUrl);
  try {
    await migrateToLatest(db);
    const email = 'faults@example.com';
    const account = await verifiedAccount(db.kysely, {
      email,
      firstName: 'Fay',
      lastName: 'Ult',
      passwordHash: await hashPassword(PASSWORD),
      now: Date.now(),
    });
    const appUserId = await appUserOf(db.kysely, account.id, { name: 'Fay', now: 0 });
    const { profileId, topicId } = await topicOf(db.kysely, account.id, appUserId);
    return { token: account.token, email, password: PASSWORD, profileId, topicId };
  } finally {
    await db.close();
  }
}

describe('the service while PostgreSQL comes and goes', { skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL unset)' }, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let proxiedUrl: string;
  let fixture: Omit<LoadTarget, 'url'>;
  let service: ServiceProcess | undefined;
  let target: LoadTarget;
  /** Unexpected exits of this test's process, and of every test's. */
  let exits = 0;
  let totalExits = 0;
  const loads: Load[] = [];

  before(async () => {
    database = await createTestDatabase();
    fixture = await seed(database.url);
    const direct = new URL(database.url);
    proxy = new TcpProxy(direct.hostname, Number(direct.port || 5432));
    await proxy.listen();
    const proxied = new URL(database.url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    proxiedUrl = proxied.toString();
  });
  after(async () => {
    await stopService();
    await proxy?.close();
    await database?.drop();
  });

  // A service process per test, so that each fault is tried on a live one.
  beforeEach(async () => {
    proxy.restore();
    const dataDir = tempDir('profile-service-faults-');
    const started = await startServiceProcess(proxiedUrl, dataDir, undefined, SERVICE_ENV);
    exits = 0;
    started.child.once('exit', () => {
      if (service !== started) return;
      exits++;
      totalExits++;
    });
    service = started;
    target = { url: started.url, ...fixture };
  });
  afterEach(stopService);

  async function stopService(): Promise<void> {
    const stopping = service;
    service = undefined;
    if (stopping && stopping.child.exitCode === null) {
      stopping.child.kill('SIGKILL');
      await stopping.exited;
    }
  }

  /** Fails at once when the process exited or an answer broke the rules. */
  async function whileAlive(load: Load, what: string, condition: () => boolean): Promise<void> {
    await until(what, () => {
      assert.equal(exits, 0, `the service process exited (waiting until ${what})`);
      assert.deepEqual(load.violations.slice(0, 5), [], `answers broke the rules (waiting until ${what})`);
      return condition();
    });
  }

  /** Runs `inject` under load, then checks the rules every answer must keep, and recovery. */
  async function underLoad(inject: (load: Load) => Promise<void>): Promise<Load> {
    const load = new Load(target, ANSWER_BOUND_MS);
    loads.push(load);
    load.start(CONCURRENCY);
    try {
      await whileAlive(load, 'the load is under way', () => load.sent >= 2 * CONCURRENCY);
      await inject(load);
      proxy.restore();
      // Back by itself: creates and reads answered normally again, under the same load.
      const created = load.count('create', 201);
      const read = load.count('read', 200);
      await whileAlive(
        load,
        'creates and reads succeed again',
        () => load.count('create', 201) > created + 5 && load.count('read', 200) > read + 5,
      );
    } finally {
      proxy.restore();
      await load.stop();
    }
    assert.equal(exits, 0, 'the service process exited');
    assert.equal(load.waitedPastBound, 0, `requests with no answer within ${ANSWER_BOUND_MS} ms`);
    assert.deepEqual(load.violations.slice(0, 10), [], `${load.violations.length} answers broke the rules`);
    return load;
  }

  async function health(): Promise<Response> {
    return fetch(`${target.url}/health`, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
  }

  test('connections reset under load: the process lives on, answers 503 or normally, and recovers', async () => {
    await underLoad(async (load) => {
      for (let round = 1; round <= 10; round++) {
        const sent = load.sent;
        proxy.reset();
        await whileAlive(load, `requests went on after reset ${round}`, () => load.sent >= sent + CONCURRENCY);
      }
    });
  });

  test('connections refused: 503 with Retry-After (never 500), then normal answers again', async () => {
    // Before the load, while the pooled connections are idle: this test is about refusals alone.
    proxy.refuse();
    proxy.reset();
    const load = await underLoad(async (load) => {
      const answered503 = () => ['read', 'create', 'health', 'login'].reduce((sum, kind) => sum + load.count(kind as 'read', 503), 0);
      await whileAlive(load, 'requests are answered 503', () => answered503() >= 3 * CONCURRENCY);
      const response = await health();
      assert.equal(response.status, 503);
      assert.ok(Number(response.headers.get('retry-after')) > 0, 'Retry-After');
      assert.deepEqual(await response.json(), { detail: 'The database is unavailable; try again shortly.' });
    });
    assert.ok(load.count('create', 503) + load.count('read', 503) > 0, 'API calls were answered 503');
  });

  test('the database stalls (accepts, never answers): /health answers 503 in bounded time, requests do not hang', async () => {
    await underLoad(async () => {
      proxy.stall();
      const started = Date.now();
      const response = await health();
      assert.equal(response.status, 503, await response.text());
      assert.ok(response.headers.has('retry-after'));
      assert.ok(Date.now() - started < ANSWER_BOUND_MS);
      // Hold the stall long enough for every pooled connection to time out under load.
      await new Promise((resolve) => setTimeout(resolve, 3000));
    });
    assert.equal((await health()).status, 200);
  });

  test('no create answered 201 is lost', async (t: TestContext) => {
    await stopService();
    const acknowledged = loads.flatMap((load) => load.acknowledged);
    assert.ok(acknowledged.length > 0);
    const db = openDatabase(database.url); // directly, not through the proxy
    let lost: number[];
    try {
      const stored = new Set(
        (await db.kysely.selectFrom('items').select('id').where('id', 'in', acknowledged).execute()).map((row) => row.id),
      );
      lost = acknowledged.filter((id) => !stored.has(id));
    } finally {
      await db.close();
    }
    const statuses = new Map<string, number>();
    for (const load of loads) for (const [key, count] of load.statuses) statuses.set(key, (statuses.get(key) ?? 0) + count);
    t.diagnostic(
      `faults injected: ${proxy.injected.resets} connections reset, ${proxy.injected.refusals} refused, ${proxy.injected.stalls} stalls`,
    );
    t.diagnostic(`service process exits: ${totalExits}`);
    t.diagnostic(
      `requests sent: ${loads.reduce((sum, load) => sum + load.sent, 0)}; waited past ${ANSWER_BOUND_MS} ms: ${loads.reduce((sum, load) => sum + load.waitedPastBound, 0)}`,
    );
    t.diagnostic(
      `answers: ${[...statuses]
        .sort()
        .map(([key, count]) => `${key}: ${count}`)
        .join(', ')}`,
    );
    t.diagnostic(`acknowledged creates: ${acknowledged.length}; lost: ${lost.length}`);
    assert.deepEqual(lost, []);
  });
});
