// GET /metrics (docs/production.md): on a listener of its own (METRICS_PORT), never the API's; the
// requests by route pattern, method and status; the outbox backlog, the hashing queue, the
// caches and the PostgreSQL pool, read when scraped.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';
import { createOwner, createProfile, type Owner } from '../app-data/fixtures.ts';
import { createTestDatabase, onPostgres } from '../helpers/database.ts';
import { freePort } from '../helpers/free-port.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format, the samples only. */
function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(server: TestServer): Promise<Sample[]> {
  assert.ok(server.server.metricsAddress, 'the metrics listener is on');
  const response = await fetch(`${server.server.metricsAddress}/metrics`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseSamples(await response.text());
}

/** The value of the one sample with this name and these labels (undefined: none). */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]?.value;
}

describe('metrics', () => {
  let server: TestServer;
  let owner: Owner;

  before(async () => {
    // The worker off: a queued e-mail stays in the outbox for the test to see.
    server = await startTestServer({ METRICS_PORT: '0', OUTBOX_WORKER: 'off' });
    owner = await createOwner(server);
  });
  after(() => server.close());

  test('served on a listener of its own, not on the API port nor in its description', async () => {
    const metricsPort = new URL(server.server.metricsAddress!).port;
    assert.notEqual(metricsPort, new URL(server.url).port);
    assert.equal((await server.request('GET', '/metrics')).status, 404);
    assert.equal((await server.request('GET', '/metrics/')).status, 404);
    const openapi = await server.request('GET', '/openapi.json');
    assert.ok(!Object.keys(openapi.body.paths).some((path) => path.includes('metrics')));

    const samples = await scrape(server);
    assert.ok(sampleValue(samples, 'process_cpu_user_seconds_total') !== undefined, 'the default process metrics are there');
    assert.equal((await fetch(`${server.server.metricsAddress}/other`)).status, 404);
    assert.equal((await fetch(`${server.server.metricsAddress}/metrics`, { method: 'POST' })).status, 405);
  });

  test('requests are counted by route pattern, method and status, never by their URL', async () => {
    const profile = await createProfile(server, owner);
    const before = await scrape(server);
    const detail = { method: 'GET', route: '/app/profiles/:id/' };
    const count = (samples: Sample[], status: string) =>
      sampleValue(samples, 'http_requests_total', { ...detail, status_code: status }) ?? 0;

    assert.equal((await server.request('GET', `/app/profiles/${profile.id}/`, { token: owner.token })).status, 200);
    assert.equal((await server.request('GET', `/app/profiles/${profile.id + 1000}/`, { token: owner.token })).status, 404);
    assert.equal((await server.request('GET', `/app/profiles/${profile.id + 1001}`, { token: owner.token })).status, 404);
    assert.equal((await server.request('GET', '/no/such/path/')).status, 404);
    assert.equal((await server.request('DELETE', '/health')).status, 405);

    const samples = await scrape(server);
    assert.equal(count(samples, '200') - count(before, '200'), 1);
    assert.equal(count(samples, '404') - count(before, '404'), 2);
    const unmatched = (status: string, method = 'GET') =>
      sampleValue(samples, 'http_requests_total', { method, route: 'unmatched', status_code: status });
    assert.ok((unmatched('404') ?? 0) >= 1);
    assert.ok((unmatched('405', 'DELETE') ?? 0) >= 1);

    // The histogram counts the same requests, in cumulative buckets.
    const labels = { ...detail, status_code: '404' };
    assert.equal(sampleValue(samples, 'http_request_duration_seconds_count', labels), count(samples, '404'));
    assert.equal(sampleValue(samples, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }), count(samples, '404'));
    const buckets = samples.filter((s) => s.name === 'http_request_duration_seconds_bucket' && s.labels.route === detail.route);
    assert.ok(buckets.length > 1);
    assert.ok((sampleValue(samples, 'http_request_duration_seconds_sum', labels) ?? -1) >= 0);

    // No id ever becomes a label value.
    for (const s of samples.filter((s) => s.name.startsWith('http_request'))) {
      assert.doesNotMatch(s.labels.route ?? '', /\d/, `route label ${s.labels.route}`);
    }
  });

  test('the outbox backlog: a queued e-mail counts, and its age grows with the clock', async () => {
    const before = await scrape(server);
    const pending = sampleValue(before, 'outbox_pending_messages')!;
    assert.equal(typeof pending, 'number');
    assert.ok(!Number.isNaN(pending));

    const registered = await server.request('POST', '/auth/register/', {
      body: { email: 'queued@example.com', password: 'a long and unusual passphrase' },
    });
    assert.equal(registered.status, 201, registered.text);
    const queued = await scrape(server);
    assert.equal(sampleValue(queued, 'outbox_pending_messages'), pending + 1);

    server.clock.advance(90_000);
    const later = await scrape(server);
    assert.ok(
      sampleValue(later, 'outbox_oldest_pending_age_seconds')! >= 90,
      `age ${sampleValue(later, 'outbox_oldest_pending_age_seconds')}`,
    );
  });

  test('the hashing queue and, on PostgreSQL, the connection pool', async () => {
    const samples = await scrape(server);
    assert.equal(sampleValue(samples, 'password_hash_queue_length'), 0);
    assert.ok(sampleValue(samples, 'password_hash_threads')! >= 1);
    assert.ok(sampleValue(samples, 'password_hash_threads_busy') !== undefined);
    if (onPostgres) {
      assert.equal(sampleValue(samples, 'db_pool_max_connections'), 20, 'two pools of DATABASE_POOL_SIZE (10)');
      assert.ok(sampleValue(samples, 'db_pool_connections')! >= 1, 'a connection was opened for the requests before');
      assert.ok(sampleValue(samples, 'db_pool_idle_connections')! <= sampleValue(samples, 'db_pool_connections')!);
      // Nothing else runs: nothing waits. The scrape's own outbox query, which asks the pool
      // for a connection as the metrics are collected, is not counted.
      for (const again of [samples, await scrape(server), await scrape(server)]) {
        assert.equal(sampleValue(again, 'db_pool_waiting_requests'), 0);
      }
    } else {
      // SQLite has one connection and no pool.
      assert.equal(sampleValue(samples, 'db_pool_connections'), undefined);
    }
  });

  test('cache hits and misses move on a repeated profile read', async () => {
    const profile = await createProfile(server, owner, { name: 'Cached' });
    const read = async () =>
      assert.equal((await server.request('GET', `/app/profiles/${profile.id}/`, { token: owner.token })).status, 200);
    const hits = (samples: Sample[], cache: string) => sampleValue(samples, 'cache_hits_total', { cache }) ?? 0;
    const misses = (samples: Sample[], cache: string) => sampleValue(samples, 'cache_misses_total', { cache }) ?? 0;

    const before = await scrape(server);
    await read(); // rendered and cached
    const first = await scrape(server);
    assert.equal(misses(first, 'rendering') - misses(before, 'rendering'), 1);
    assert.equal(hits(first, 'rendering'), hits(before, 'rendering'));
    await read(); // from the cache
    const second = await scrape(server);
    assert.equal(hits(second, 'rendering') - hits(first, 'rendering'), 1);
    assert.equal(misses(second, 'rendering'), misses(first, 'rendering'));
    if (!onPostgres) {
      // SQLite keeps the token rows in memory too; PostgreSQL reads them with each request.
      assert.ok(hits(second, 'token') > hits(before, 'token'));
    } else {
      assert.equal(sampleValue(second, 'cache_hits_total', { cache: 'token' }), undefined);
    }
  });
});

describe('metrics listener', () => {
  test('off unless METRICS_PORT is set', async () => {
    const server = await startTestServer();
    try {
      assert.equal(server.server.metricsAddress, undefined);
      assert.equal((await server.request('GET', '/metrics')).status, 404);
    } finally {
      await server.close();
    }
  });

  test('closes with the server', async () => {
    const server = await startTestServer({ METRICS_PORT: '0' });
    const address = server.server.metricsAddress!;
    assert.equal((await fetch(`${address}/metrics`)).status, 200);
    await server.close();
    await assert.rejects(fetch(`${address}/metrics`));
  });

  test('its port taken: start-up fails and leaves the API port closed again', async () => {
    const database = await createTestDatabase();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    const apiPort = await freePort();
    const dataDir = tempDir('profile-service-metrics-');
    try {
      const config = loadConfig({
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        METRICS_PORT: String(taken),
        DATABASE_URL: database.url,
        LOG_LEVEL: 'silent',
        MAIL_DIR: join(dataDir, 'mail'),
        MEDIA_STORAGE: `fs:${join(dataDir, 'media')}`,
      });
      await assert.rejects(startServer(config), /EADDRINUSE/);
      // The API had started listening before the metrics listener failed: it is closed again.
      await assert.rejects(fetch(`http://127.0.0.1:${apiPort}/health`));
    } finally {
      blocker.close();
      await database.drop();
    }
  });
});
