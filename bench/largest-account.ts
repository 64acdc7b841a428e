// The largest account the bounds allow (docs/app-data.md), and what it costs everyone else to read,
// export and delete it. `npx node --import tsx bench/largest-account.ts [--db sqlite|postgres://…]
// [--media-mb 1024] [--no-build]`
//
// Fills one account through the API up to every account-wide bound, in the shape that makes
// each read largest: one profile holding all 10,000 items, one topic of it 1,000 items × 100
// entries of 255 characters (all 100,000 entries), and 1 GiB of media in 10 MiB files; checks
// that the next item, entry and upload are refused. Then, on a fresh service process, for each
// operation: its time, the service's peak RSS during it (VmHWM, reset before each through
// /proc/<pid>/clear_refs), and the longest answer of GET /health asked one after another
// meanwhile, which is what any other client waited at worst.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
import { SEED_PASSWORD } from '../src/cli/seed-data.ts';
import { benchAccounts, createBenchDatabase, seed } from './fixtures.ts';
import { detectPinning } from './pinning.ts';
import { pngOfSize } from './png.ts';
import { ROOT, startService, type ServiceProcess } from './processes.ts';

const BOUNDS = { items: 10_000, entries: 100_000, mediaBytes: 2 ** 30 };
const FILE_BYTES = 10 * 2 ** 20;
const TEXT = 'x'.repeat(255);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function status(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      'media-mb': { type: 'string', default: String(BOUNDS.mediaBytes / 2 ** 20) },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const mediaBytes = Number(values['media-mb']) * 2 ** 20;
  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const workDir = mkdtempSync(join(tmpdir(), 'profile-largest-account-'));
  const database = await createBenchDatabase(values.db!, 'largest', workDir, 1);
  const pinning = detectPinning();
  const env = {
    QUOTA_ITEMS_PER_ACCOUNT: String(BOUNDS.items),
    QUOTA_ENTRIES_PER_ACCOUNT: String(BOUNDS.entries),
    QUOTA_MEDIA_BYTES_PER_ACCOUNT: String(mediaBytes),
    QUOTA_ITEMS_PER_TOPIC: '1000',
    MEDIA_MAX_BYTES: String(FILE_BYTES),
    OVERLOAD_EVENT_LOOP_DELAY: '0',
  };
  try {
    await seed(database);
    const setup = await startService({ databaseUrl: database.url, pinning, dataDir: workDir, name: 'fill', env });
    let account: Awaited<ReturnType<typeof fill>>;
    try {
      account = await fill(setup, database.url, mediaBytes);
    } finally {
      await setup.stop();
    }
    const service = await startService({ databaseUrl: database.url, pinning, dataDir: workDir, name: 'measure', env });
    try {
      console.log(`The largest account, ${database.url.split(':')[0]}: ${account.summary}`);
      console.log('| operation | time | body | peak RSS (rise) | longest /health meanwhile |');
      console.log('|---|---|---|---|---|');
      const get = (path: string) => () => request(service, account.token, 'GET', path);
      await measure(service, account.token, 'GET /account/profile/ (a baseline)', get('/account/profile/'));
      await measure(service, account.token, 'GET the largest topic', get(`/app/topics/${account.topicId}/`));
      await measure(service, account.token, 'GET its items (first read)', get(`/app/topics/${account.topicId}/items/`));
      await measure(service, account.token, 'GET its items (again)', get(`/app/topics/${account.topicId}/items/`));
      await measure(service, account.token, 'GET the largest profile (first read)', get(`/app/profiles/${account.profileId}/`));
      await measure(service, account.token, 'GET the largest profile (again)', get(`/app/profiles/${account.profileId}/`));
      await measure(service, account.token, 'GET /account/export/', async () => {
        const response = await fetch(`${service.url}/account/export/`, { headers: { authorization: `Token ${account.token}` } });
        if (response.status !== 200) throw new Error(`export: ${response.status} ${await response.text()}`);
        const file = join(workDir, 'export.zip');
        await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(file));
        return statSync(file).size;
      });
      await measure(service, account.token, 'DELETE /account/', () =>
        request(service, account.token, 'DELETE', '/account/', { password: SEED_PASSWORD }, 204),
      );
    } finally {
      await service.stop();
    }
  } finally {
    await database.drop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

async function request(service: ServiceProcess, token: string, method: string, path: string, body?: unknown, expected = 200) {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Token ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status}`);
  return bytes;
}

async function measure(service: ServiceProcess, token: string, label: string, operation: () => Promise<number>): Promise<void> {
  await request(service, token, 'GET', '/health');
  writeFileSync(`/proc/${service.pid}/clear_refs`, '5'); // VmHWM := VmRSS
  const baseline = status(service.pid).rss;
  let running = true;
  let longest = 0;
  const poller = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${service.url}/health`)).arrayBuffer();
      longest = Math.max(longest, performance.now() - started);
    }
  })();
  const started = performance.now();
  const bytes = await operation();
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await poller;
  const peak = status(service.pid).hwm;
  console.log(
    `| ${label} | ${seconds.toFixed(2)} s | ${(bytes / 2 ** 20).toFixed(1)} MiB | ${mib(peak)} (+${mib(peak - baseline)}) | ${longest.toFixed(0)} ms |`,
  );
}

/** Fills the bench account to every bound, concurrently through the API; checks the bounds hold. */
async function fill(service: ServiceProcess, databaseUrl: string, mediaBytes: number) {
  const { token, profileId: seededProfile } = (await benchAccounts(service.url, databaseUrl, [1])).accounts[0]!;
  const call = async (method: string, path: string, body: unknown, expected = 201) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: `Token ${token}`, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
      body: body instanceof FormData ? body : JSON.stringify(body),
    });
    const answer = (await response.json()) as any;
    if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const inParallel = async (count: number, work: (i: number) => Promise<unknown>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < count) await work(next++);
      }),
    );
  };
  const [appUser] = (await (await fetch(`${service.url}/app/users/`, { headers: { authorization: `Token ${token}` } })).json()) as any[];
  const profile = await call('POST', `/app/users/${appUser.id}/profiles/`, { name: 'Everything' });
  const topics: number[] = [];
  for (let t = 0; t < 10; t++)
    topics.push((await call('POST', `/app/profiles/${profile.id}/topics/`, { name: `T${t}`, topic_type: 3 })).id);
  const usage = async () => {
    const detail = await call('GET', `/app/profiles/${seededProfile}/`, undefined, 200);
    const items = detail.topics.flatMap((topic: any) => topic.items);
    return { items: items.length, entries: items.reduce((n: number, item: any) => n + (item.list_content?.entries.length ?? 0), 0) };
  };
  const seeded = await usage();
  const entries = (n: number) => ({ entries: Array.from({ length: n }, () => ({ text: TEXT })) });
  // The big topic: 1,000 items holding every entry the bound leaves.
  const room = BOUNDS.entries - seeded.entries;
  await inParallel(1000, (i) =>
    call('POST', `/app/topics/${topics[0]}/items/`, {
      name: `Big ${i}`,
      list_content: entries(Math.min(100, Math.max(0, room - i * 100))),
    }),
  );
  // Every other item the bound leaves, without entries, in the other topics.
  const rest = BOUNDS.items - seeded.items - 1000;
  await inParallel(rest, (i) => call('POST', `/app/topics/${topics[1 + (i % 9)]}/items/`, { name: `Item ${i}`, list_content: entries(0) }));
  await call('POST', `/app/topics/${topics[1]}/items/`, { name: 'One too many', list_content: entries(0) }, 400);
  const uploads = Math.floor(mediaBytes / FILE_BYTES);
  const upload = (i: number, expected = 201) => {
    const form = new FormData();
    form.append('name', `Film ${i}`);
    form.append('file', new Blob([new Uint8Array(pngOfSize(FILE_BYTES))]), `film-${i}.png`);
    return call('POST', `/app/users/${appUser.id}/gallery/`, form, expected);
  };
  await inParallel(uploads, (i) => upload(i));
  await upload(uploads, 400);
  const itemWithRoom = (await call('GET', `/app/topics/${topics[1]}/items/`, undefined, 200))[0];
  await call('POST', `/app/items/${itemWithRoom.id}/list-entries/`, { text: 'one too many' }, 400);
  return {
    token,
    profileId: profile.id as number,
    topicId: topics[0]!,
    summary: `${BOUNDS.items.toLocaleString('en-US')} items and ${BOUNDS.entries.toLocaleString('en-US')} list entries of 255 characters (seeded ${seeded.items} and ${seeded.entries}), ${uploads} media files of 10 MiB (${mib(uploads * FILE_BYTES)}); the next item, entry and upload each refused`,
  };
}

await main();
