// The workloads W1…W8. Each starts its own service process (so peak RSS and start-up are
// its own), checks that its request works, warms up, then measures the repeats. Where a
// figure is compared with another (the service with its ceiling, W1 with and without
// logins, small and large database), the two are measured in turn within each repeat, so
// that drift of a shared machine hits both alike.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEED_PASSWORD } from '../src/cli/seed-data.ts';
import {
  benchAccounts,
  countItems,
  createBenchDatabase,
  seed,
  shareWith,
  spreadNumbers,
  type BenchAccount,
  type BenchDatabase,
} from './fixtures.ts';
import { figuresOf, median, type Figures } from './figures.ts';
import { runLoad, type Measurement } from './load-runner.ts';
import type { LoadRequest, LoadSpec } from './load-types.ts';
import type { BenchOptions } from './options.ts';
import type { Pinning } from './pinning.ts';
import { measureArgon2Limit, startCeiling, startService, type MeasuredProcess, type ServiceProcess } from './processes.ts';
import type { Row } from './report.ts';
import { inTurns, stretchSeconds, summed, TURNS } from './turns.ts';
import { byAccessors, itemCreates, logins, profileReads, topicItemReads } from './requests.ts';

/** How many accounts the reads use (and, disjoint from them, how many W3 writes under). */
export const READ_ACCOUNTS = 50;

export interface Body {
  file: string;
  contentType: string;
  bytes: number;
}

export interface BenchContext {
  options: BenchOptions;
  pinning: Pinning;
  workDir: string;
  onPostgres: boolean;
  main: BenchDatabase;
  readers: BenchAccount[];
  writers: BenchAccount[];
  /** The responses the ceilings serve: W1's and W2's, fetched from the service. */
  bodies: { W1?: Body; W2?: Body };
  ceilings: { W1?: Figures; W2?: Figures };
  argon2Limit?: number;
  startups: { label: string; ms: number }[];
  rows: Row[];
  notes: string[];
  log(message: string): void;
}

function spec(
  ctx: BenchContext,
  url: string,
  requests: LoadRequest[],
  connections = ctx.options.connections,
  seconds = ctx.options.durationSeconds,
): LoadSpec {
  return { generator: ctx.options.generator, url, connections, durationSeconds: seconds, requests };
}

function describe(run: Measurement): string {
  return (
    `${Math.round(run.requestsPerSecond).toLocaleString('en-US')} req/s, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms` +
    (run.other + run.errors > 0 ? `, ${run.other + run.errors} failed` : '')
  );
}

async function startMainService(ctx: BenchContext, name: string, env?: Record<string, string>): Promise<ServiceProcess> {
  const service = await startService({ databaseUrl: ctx.main.url, pinning: ctx.pinning, dataDir: ctx.workDir, name, env });
  ctx.startups.push({ label: `${ctx.main.accounts.toLocaleString('en-US')} accounts`, ms: service.startupMs });
  return service;
}

/** Sends a workload's first request once: an answer other than `expected` means the endpoint is missing or broken. */
async function probe(url: string, request: LoadRequest, expected: number): Promise<string | undefined> {
  const response = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  if (response.status === expected) return undefined;
  return `not measured: ${request.method} ${request.path.replace(/\d+/g, '{id}')} answered ${response.status}${response.status === 404 ? ' (not implemented yet?)' : `: ${text.slice(0, 120)}`}`;
}

interface Contender {
  name: string;
  target: MeasuredProcess;
  spec: LoadSpec;
}

/**
 * Warms each contender up, then measures them `repeats` times: each repeat one stretch of each,
 * one after the other; with `turns`, each contender's stretch cut into turns taken in turn
 * (turns.ts), which contender goes first alternating from repeat to repeat.
 */
async function measureInTurn(
  ctx: BenchContext,
  contenders: Contender[],
  { turns = false } = {},
): Promise<{ runs: Measurement[][]; warmups: Measurement[] }> {
  const warmups: Measurement[] = [];
  for (const c of contenders) {
    ctx.log(`${c.name}: warming up for ${ctx.options.warmupSeconds} s`);
    warmups.push(await runLoad(ctx.pinning, { ...c.spec, durationSeconds: ctx.options.warmupSeconds }, ctx.workDir, c.target));
  }
  const runs: Measurement[][] = contenders.map(() => []);
  for (let r = 1; r <= ctx.options.repeats; r++) {
    if (turns) {
      const first = contenders.map((_, i) => i);
      const order = r % 2 === 1 ? first : first.toReversed();
      const measured = await inTurns(order, stretchSeconds(ctx.options), (i, durationSeconds) =>
        runLoad(ctx.pinning, { ...contenders[i]!.spec, durationSeconds }, ctx.workDir, contenders[i]!.target),
      );
      for (const [i, c] of contenders.entries()) {
        runs[i]!.push(summed(measured[i]!));
        ctx.log(`${c.name}: repeat ${r}/${ctx.options.repeats} (${TURNS} turns): ${describe(runs[i]!.at(-1)!)}`);
      }
      continue;
    }
    for (const [i, c] of contenders.entries()) {
      const run = await runLoad(ctx.pinning, c.spec, ctx.workDir, c.target);
      runs[i]!.push(run);
      ctx.log(`${c.name}: repeat ${r}/${ctx.options.repeats}: ${describe(run)}`);
    }
  }
  return { runs, warmups };
}

function ceilingRatio(ctx: BenchContext, figures: Figures, ceiling: 'W1' | 'W2'): Row['ratio'] {
  const limit = ctx.ceilings[ceiling];
  return limit ? { value: figures.requestsPerSecond / limit.requestsPerSecond, of: `${ceiling} ceiling` } : undefined;
}

async function writeBody(ctx: BenchContext, name: 'W1' | 'W2', url: string, request: LoadRequest): Promise<void> {
  const response = await fetch(url + request.path, { headers: request.headers });
  if (response.status !== 200) return;
  const bytes = Buffer.from(await response.arrayBuffer());
  const file = join(ctx.workDir, `${name}-response`);
  writeFileSync(file, bytes);
  ctx.bodies[name] = { file, contentType: response.headers.get('content-type') ?? 'application/json', bytes: bytes.length };
}

/** Logs the bench accounts in and keeps W1's and W2's responses for the ceilings. */
export async function prepare(ctx: BenchContext): Promise<void> {
  const service = await startMainService(ctx, 'setup');
  try {
    const total = ctx.main.accounts;
    const readers = spreadNumbers(total, READ_ACCOUNTS);
    const offset = Math.floor(total / readers.length / 2);
    const writers = offset > 0 ? spreadNumbers(total, READ_ACCOUNTS, offset) : readers;
    if (writers === readers) ctx.notes.push('W3 writes under the same accounts the reads use (too few accounts to keep them apart).');
    const numbers = [...new Set([...readers, ...writers])];
    const { accounts, via } = await benchAccounts(service.url, ctx.main.url, numbers);
    const byNumber = new Map(accounts.map((a) => [a.number, a]));
    ctx.readers = readers.map((n) => byNumber.get(n)!);
    ctx.writers = writers.map((n) => byNumber.get(n)!);
    ctx.notes.push(`Tokens: ${via}.`);
    await writeBody(ctx, 'W1', service.url, profileReads(ctx.readers)[0]!);
    await writeBody(ctx, 'W2', service.url, topicItemReads(ctx.readers)[0]!);
  } finally {
    await service.stop();
  }
}

async function measureCeiling(ctx: BenchContext, name: 'W1' | 'W2'): Promise<void> {
  const body = ctx.bodies[name];
  if (!body || ctx.ceilings[name]) return;
  const ceiling = await startCeiling(ctx.pinning, body.file, body.contentType);
  try {
    const { runs } = await measureInTurn(ctx, [
      { name: `${name} ceiling`, target: ceiling, spec: spec(ctx, ceiling.url, [{ method: 'GET', path: '/', headers: {} }]) },
    ]);
    ctx.ceilings[name] = figuresOf(runs[0]!, ceiling.peakRssBytes());
    ctx.rows.push({
      label: `ceiling for ${name}: node:http serving its ${body.bytes.toLocaleString('en-US')} bytes`,
      figures: ctx.ceilings[name],
      ratio: { value: 1, of: `${name} ceiling` },
    });
  } finally {
    await ceiling.stop();
  }
}

/** W1, W1u or W2 against the ceiling that serves its exact bytes (`name`'s: W1u serves W1's). */
async function readWorkload(
  ctx: BenchContext,
  name: 'W1' | 'W2',
  label: string,
  requests: LoadRequest[],
  variant?: { id: 'W1u'; env: Record<string, string> },
): Promise<void> {
  const body = ctx.bodies[name];
  const id = variant?.id ?? name;
  const service = await startMainService(ctx, id, variant?.env);
  let ceiling: MeasuredProcess | undefined;
  try {
    const failure = await probe(service.url, requests[0]!, 200);
    if (failure || !body) {
      ctx.rows.push({ label, note: failure ?? 'not measured: no response to copy for the ceiling' });
      return;
    }
    ceiling = await startCeiling(ctx.pinning, body.file, body.contentType);
    const { runs } = await measureInTurn(ctx, [
      { name: `${id} ceiling`, target: ceiling, spec: spec(ctx, ceiling.url, [{ method: 'GET', path: '/', headers: {} }]) },
      { name: id, target: service, spec: spec(ctx, service.url, requests) },
    ]);
    const ceilingFigures = figuresOf(runs[0]!, ceiling.peakRssBytes());
    if (!variant) ctx.ceilings[name] = ceilingFigures;
    const figures = figuresOf(runs[1]!, service.peakRssBytes());
    // Each repeat against the ceiling's repeat just before it, and the median of those ratios:
    // the VM's speed drifts over minutes, and a ratio of two medians can pair a fast stretch
    // of one with a slow stretch of the other.
    const ratio = median(runs[1]!.map((run, i) => run.requestsPerSecond / runs[0]![i]!.requestsPerSecond));
    ctx.rows.push({
      label: `ceiling for ${id}: node:http serving ${name}'s ${body.bytes.toLocaleString('en-US')} bytes`,
      figures: ceilingFigures,
      ratio: { value: 1, of: `${id} ceiling` },
    });
    const row: Row = { label, figures, ratio: { value: ratio, of: `${id} ceiling` } };
    const cpuShares = runs[1]!.flatMap((run, i) => {
      const ceilingCpu = runs[0]![i]!.cpuMsPerRequest;
      return ceilingCpu !== undefined && run.cpuMsPerRequest ? [ceilingCpu / run.cpuMsPerRequest] : [];
    });
    if (cpuShares.length > 0) {
      // Unlike req/s, this share does not depend on the load generator keeping up with the ceiling.
      row.note = `by server CPU per request it is ${Math.round(median(cpuShares) * 100)} % of the ceiling`;
    }
    if (variant) {
      // W1u has no target of its own: it is the cost of a cache miss, judged by --compare.
    } else if (name === 'W1' && !ctx.onPostgres) {
      row.target = '≥ 50 % of ceiling, p99 ≤ 10 ms, RSS ≤ 150 MB';
      row.met = ratio >= 0.5 && figures.p99 <= 10 && (figures.peakRssMb ?? 0) <= 150;
    } else if (!ctx.onPostgres) {
      row.target = '≥ 50 % of its ceiling';
      row.met = ratio >= 0.5;
    }
    ctx.rows.push(row);
  } finally {
    await ceiling?.stop();
    await service.stop();
  }
}

export async function w1(ctx: BenchContext): Promise<void> {
  await readWorkload(ctx, 'W1', 'W1 GET /app/profiles/{id}/', profileReads(ctx.readers));
}

/** The rendering cache holds nothing (src/app-data/views/rendering-cache.ts keeps no rendering larger than a quarter of it). */
export const NO_RENDER_CACHE = { RENDER_CACHE_BYTES: '0' };

/** W1u: W1 with every read a rendering-cache miss, as the first read after each write is. */
export async function w1u(ctx: BenchContext): Promise<void> {
  await readWorkload(ctx, 'W1', 'W1u GET /app/profiles/{id}/, rendering cache off', profileReads(ctx.readers), {
    id: 'W1u',
    env: NO_RENDER_CACHE,
  });
}

/** A list entry of the profile each account reads, with the account's token: what W1w writes. */
export interface EntryWrite {
  account: BenchAccount;
  entryId: number;
}

/** The first list entry of each account's profile (its first topic holding one), or a note why there is none. */
export async function entriesToWrite(url: string, accounts: BenchAccount[]): Promise<EntryWrite[] | string> {
  const found: EntryWrite[] = [];
  for (const account of accounts) {
    const request = profileReads([account])[0]!;
    const response = await fetch(url + request.path, { headers: request.headers });
    if (response.status !== 200) return `not measured: the profile read answered ${response.status}`;
    const detail = (await response.json()) as { topics: { items: { list_content: { entries: { id: number }[] } | null }[] }[] };
    const entry = detail.topics.flatMap((t) => t.items.flatMap((i) => i.list_content?.entries ?? []))[0];
    if (!entry) return 'not measured: a profile without a list entry';
    found.push({ account, entryId: entry.id });
  }
  return found;
}

export interface PairsRun {
  writes: number;
  reads: number;
  failures: number;
  seconds: number;
  readLatencies: number[];
  /** CPU seconds within the read phases only. */
  serviceCpu: number | undefined;
  databaseCpu: number | undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `b - a` added to `sum`; undefined once any reading is missing. */
const addDelta = (sum: number | undefined, a: number | undefined, b: number | undefined) =>
  sum === undefined || a === undefined || b === undefined ? undefined : sum + b - a;

const emptyRun = (seconds: number): PairsRun => ({
  writes: 0,
  reads: 0,
  failures: 0,
  seconds,
  readLatencies: [],
  serviceCpu: 0,
  databaseCpu: 0,
});

/** Every account's profile read at once, into `run`: its CPU (service, database) read just before and after; its duration in ms. */
async function readBurst(service: ServiceProcess, writes: EntryWrite[], run: PairsRun): Promise<number> {
  const service0 = service.cpuSeconds();
  const database0 = service.databaseCpuSeconds?.();
  const readStart = performance.now();
  await Promise.all(
    writes.map(async ({ account }) => {
      const sent = performance.now();
      const read = await fetch(`${service.url}/app/profiles/${account.profileId}/`, {
        headers: { authorization: `Token ${account.token}` },
      });
      await read.arrayBuffer();
      run.readLatencies.push(performance.now() - sent);
      run.reads++;
      if (read.status !== 200) run.failures++;
    }),
  );
  run.serviceCpu = addDelta(run.serviceCpu, service0, service.cpuSeconds());
  run.databaseCpu = addDelta(run.databaseCpu, database0, service.databaseCpuSeconds?.());
  return performance.now() - readStart;
}

/**
 * For `seconds`, rounds of: every account's entry changed (all at once), a pause for what the
 * writes leave behind (commits, notifications), then every account's profile read (all at once),
 * the service's and the database's CPU read just before and just after the reads: the reads'
 * CPU is the sum over the read phases alone, with no write in flight. With `hits`, each round
 * then reads the same profiles again at once, into `hits`: each of those reads is a hit, so
 * they say what a read costs in this shape of load whatever it finds.
 */
export async function runPairs(service: ServiceProcess, writes: EntryWrite[], seconds: number, hits?: PairsRun): Promise<PairsRun> {
  const run = emptyRun(seconds);
  const deadline = performance.now() + seconds * 1000;
  let reading = 0;
  let hitReading = 0;
  for (let round = 0; performance.now() < deadline; round++) {
    await Promise.all(
      writes.map(async ({ account, entryId }) => {
        const written = await fetch(`${service.url}/app/list-entries/${entryId}/`, {
          method: 'PATCH',
          headers: { authorization: `Token ${account.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ text: `Written ${round}` }),
        });
        await written.arrayBuffer();
        run.writes++;
        if (written.status !== 200) run.failures++;
      }),
    );
    await pause(20);
    reading += await readBurst(service, writes, run);
    if (hits) hitReading += await readBurst(service, writes, hits);
  }
  // Reads per second of the read phases themselves.
  run.seconds = reading / 1000;
  if (hits) hits.seconds = hitReading / 1000;
  return run;
}

/** The read CPU (service, database: ms per read) of each repeat, and the runs with reads. */
interface ReadCosts {
  serviceMs: number[];
  databaseMs: number[];
  pairs: PairsRun[];
}

/** One repeat on `service`: rounds of writes, then reads; a read's CPU is that of the read phases per read. */
async function measureReads(
  ctx: BenchContext,
  name: string,
  service: ServiceProcess,
  writes: EntryWrite[],
  costs: ReadCosts,
  hitCosts?: ReadCosts,
) {
  const hits = hitCosts && emptyRun(0);
  const pairs = await runPairs(service, writes, ctx.options.durationSeconds, hits);
  const own = addReads(costs, pairs);
  ctx.log(`${name}: ${pairs.reads} reads after writes; read CPU ${own.service} ms + database ${own.database} ms`);
  if (hitCosts && hits) {
    const again = addReads(hitCosts, hits);
    ctx.log(`${name}: the same ${hits.reads} reads again, hits; read CPU ${again.service} ms + database ${again.database} ms`);
  }
}

/** `run`'s CPU per read added to `costs`; the figures as printed. */
function addReads(costs: ReadCosts, run: PairsRun): { service: string; database: string } {
  costs.pairs.push(run);
  const perRead = (cpu: number | undefined) => (cpu === undefined || run.reads === 0 ? undefined : (cpu * 1000) / run.reads);
  const own = perRead(run.serviceCpu);
  const database = perRead(run.databaseCpu);
  if (own !== undefined) costs.serviceMs.push(own);
  if (database !== undefined) costs.databaseMs.push(database);
  return { service: own?.toFixed(3) ?? 'n/a', database: database?.toFixed(3) ?? 'n/a' };
}

function readFigures(costs: ReadCosts, service: ServiceProcess): Figures {
  const latencies = costs.pairs.flatMap((run) => run.readLatencies).sort((a, b) => a - b);
  return {
    requestsPerSecond: median(costs.pairs.map((run) => run.reads / run.seconds)),
    p50: latencies[Math.floor(latencies.length * 0.5)] ?? NaN,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? NaN,
    cpuMsPerRequest: costs.serviceMs.length > 0 ? median(costs.serviceMs) : undefined,
    databaseCpuMsPerRequest: costs.databaseMs.length > 0 ? median(costs.databaseMs) : undefined,
    peakRssMb: (service.peakRssBytes() ?? NaN) / (1024 * 1024),
    failures: costs.pairs.reduce((sum, run) => sum + run.failures, 0),
    loadCpuShare: 0,
    repeats: costs.pairs.length,
  };
}

const totalCpu = (f: Figures | undefined) =>
  f?.cpuMsPerRequest === undefined ? undefined : f.cpuMsPerRequest + (f.databaseCpuMsPerRequest ?? 0);

/**
 * W1w: one client changes one list entry in one topic of a profile (5 topics, 50 items), another
 * then reads that profile's detail, in turn, over the read accounts (runPairs: rounds of writes,
 * then reads; a read's CPU is that of the read phases alone, service and database apart). The
 * same is measured, in turn within each repeat, on a service with the
 * rendering cache off (W1w-off: every read renders whole, as W1u's), so that the two are set
 * against each other by one method; W1u's and W1's rows of the same run are named beside them.
 */
export async function w1w(ctx: BenchContext): Promise<void> {
  const label = 'W1w GET /app/profiles/{id}/ after a one-entry write to one of its topics';
  const offLabel = 'W1w-off the same with the rendering cache off (every read renders whole)';
  const service = await startMainService(ctx, 'W1w');
  let off: ServiceProcess | undefined;
  try {
    off = await startMainService(ctx, 'W1w-off', NO_RENDER_CACHE);
    const writes = await entriesToWrite(service.url, ctx.readers);
    if (typeof writes === 'string') {
      ctx.rows.push({ label, note: writes });
      return;
    }
    ctx.log(`W1w: warming up for ${ctx.options.warmupSeconds} s`);
    await runPairs(service, writes, ctx.options.warmupSeconds);
    await runPairs(off, writes, ctx.options.warmupSeconds);
    const cached: ReadCosts = { serviceMs: [], databaseMs: [], pairs: [] };
    const whole: ReadCosts = { serviceMs: [], databaseMs: [], pairs: [] };
    const hits: ReadCosts = { serviceMs: [], databaseMs: [], pairs: [] };
    for (let r = 1; r <= ctx.options.repeats; r++) {
      await measureReads(ctx, `W1w: repeat ${r}/${ctx.options.repeats}`, service, writes, cached, hits);
      await measureReads(ctx, `W1w-off: repeat ${r}/${ctx.options.repeats}`, off, writes, whole);
    }
    const figures = readFigures(cached, service);
    const offFigures = readFigures(whole, off);
    const hitFigures = readFigures(hits, service);
    const read = totalCpu(figures);
    const against = (name: string, other: number | undefined) =>
      other !== undefined && read !== undefined ? `${(read / other).toFixed(2)} × ${name}` : undefined;
    const offCpu = totalCpu(offFigures);
    const notes = [
      against("W1w-off's", offCpu),
      against("W1u's", totalCpu(ctx.rows.find((row) => row.label.startsWith('W1u '))?.figures)),
      against("W1's", totalCpu(ctx.rows.find((row) => row.label.startsWith('W1 '))?.figures)),
    ].filter(Boolean);
    const hitCpu = totalCpu(hitFigures);
    if (hitCpu !== undefined && offCpu !== undefined && read !== undefined)
      notes.push(
        `beyond a hit in the same bursts (W1w-hit) ${(read - hitCpu).toFixed(3)} ms against W1w-off's ${(offCpu - hitCpu).toFixed(3)} ms: ${((read - hitCpu) / (offCpu - hitCpu)).toFixed(2)} ×`,
      );
    const method = `rounds of ${writes.length} entry writes (one per account, at once), a pause, then the ${writes.length} profiles read at once; CPU per read over the read phases only`;
    ctx.rows.push({ label: offLabel, figures: offFigures, note: method });
    ctx.rows.push({
      label: 'W1w-hit the same profiles read again at once after each W1w read phase: every read a hit',
      figures: hitFigures,
      note: "what a read costs in these bursts whatever it finds (W1 under wrk costs less per read): W1w − W1w-hit is the miss's own work",
    });
    ctx.rows.push({
      label,
      figures,
      target: "read CPU (service + database) ≤ 0.4 × W1w-off's",
      met: offCpu !== undefined && read !== undefined ? read <= 0.4 * offCpu : undefined,
      note: `${method}${notes.length > 0 ? `: read CPU (service + database) ${notes.join(', ')}` : ''}`,
    });
  } finally {
    await off?.stop();
    await service.stop();
  }
}

export async function w2(ctx: BenchContext): Promise<void> {
  await readWorkload(ctx, 'W2', 'W2 GET /app/topics/{id}/items/', topicItemReads(ctx.readers));
}

export async function w3(ctx: BenchContext): Promise<void> {
  const label = 'W3 POST /app/topics/{id}/items/ (list, 3 entries)';
  await measureCeiling(ctx, 'W1');
  const requests = itemCreates(ctx.writers);
  const topics = ctx.writers.map((a) => a.topicId);
  const service = await startMainService(ctx, 'W3');
  try {
    const before = await countItems(ctx.main.url, topics);
    const failure = await probe(service.url, requests[0]!, 201);
    if (failure) {
      ctx.rows.push({ label, note: failure });
      return;
    }
    const { runs, warmups } = await measureInTurn(ctx, [{ name: 'W3', target: service, spec: spec(ctx, service.url, requests) }]);
    const acknowledged = 1 + [...warmups, ...runs[0]!].reduce((sum, run) => sum + run.ok, 0);
    const found = (await countItems(ctx.main.url, topics)) - before;
    const figures = figuresOf(runs[0]!, service.peakRssBytes());
    ctx.rows.push({
      label,
      figures,
      ratio: ceilingRatio(ctx, figures, 'W1'),
      target: ctx.onPostgres
        ? '≥ 3,000 creates/s at ≤ 0.3 ms server CPU, every acknowledged write stored'
        : '≥ 5,000 creates/s, every acknowledged write stored',
      met: ctx.onPostgres
        ? figures.requestsPerSecond >= 3000 && (figures.cpuMsPerRequest ?? Infinity) <= 0.3 && found >= acknowledged
        : figures.requestsPerSecond >= 5000 && found >= acknowledged,
      // Requests in flight when a run stops are stored but never acknowledged: found may exceed acknowledged.
      note:
        `${acknowledged.toLocaleString('en-US')} creates acknowledged (201), ${found.toLocaleString('en-US')} new items found in the database afterwards` +
        (found >= acknowledged ? '' : ': ACKNOWLEDGED WRITES ARE MISSING'),
    });
  } finally {
    await service.stop();
  }
}

export async function w4(ctx: BenchContext): Promise<void> {
  const label = `W4 POST /auth/login/ (${ctx.options.loginConnections} connections)`;
  const requests = logins(ctx.readers, SEED_PASSWORD);
  const service = await startMainService(ctx, 'W4');
  try {
    const failure = await probe(service.url, requests[0]!, 200);
    if (failure) {
      ctx.rows.push({ label, note: failure });
      return;
    }
    const loginSpec = spec(ctx, service.url, requests, ctx.options.loginConnections);
    ctx.log(`W4: warming up for ${ctx.options.warmupSeconds} s`);
    await runLoad(ctx.pinning, { ...loginSpec, durationSeconds: ctx.options.warmupSeconds }, ctx.workDir, service);
    // The limit is measured in turn with each repeat, like the ceilings.
    const limits: number[] = [];
    const runs: Measurement[] = [];
    for (let r = 1; r <= ctx.options.repeats; r++) {
      limits.push(await measureArgon2Limit(ctx.pinning, 3));
      runs.push(await runLoad(ctx.pinning, loginSpec, ctx.workDir, service));
      ctx.log(`W4: repeat ${r}/${ctx.options.repeats}: argon2id limit ${Math.round(limits.at(-1)!)}/s; ${describe(runs.at(-1)!)}`);
    }
    ctx.argon2Limit = median(limits);
    const figures = figuresOf(runs, service.peakRssBytes());
    const ratio = figures.requestsPerSecond / ctx.argon2Limit;
    ctx.rows.push({
      label,
      figures,
      ratio: { value: ratio, of: `argon2id limit (${Math.round(ctx.argon2Limit)}/s)` },
      target: ctx.onPostgres ? undefined : '≥ 80 % of the argon2id limit',
      met: ctx.onPostgres ? undefined : ratio >= 0.8,
    });
  } finally {
    await service.stop();
  }
}

/** W5: W1's latency alone and while logins run, in turn within each repeat. */
export async function w5(ctx: BenchContext): Promise<void> {
  await measureCeiling(ctx, 'W1');
  const reads = profileReads(ctx.readers);
  const loginRequests = logins(ctx.readers, SEED_PASSWORD);
  const service = await startMainService(ctx, 'W5');
  try {
    const failure = (await probe(service.url, reads[0]!, 200)) ?? (await probe(service.url, loginRequests[0]!, 200));
    if (failure) {
      ctx.rows.push({ label: 'W5 W1 while W4 runs', note: failure });
      return;
    }
    const readSpec = spec(ctx, service.url, reads);
    const loginSpec = spec(ctx, service.url, loginRequests, ctx.options.loginConnections);
    const warmup = (s: LoadSpec) => ({ ...s, durationSeconds: ctx.options.warmupSeconds });
    ctx.log(`W5: warming up for ${ctx.options.warmupSeconds} s`);
    await Promise.all([runLoad(ctx.pinning, warmup(readSpec), ctx.workDir), runLoad(ctx.pinning, warmup(loginSpec), ctx.workDir)]);
    const alone: Measurement[] = [];
    const during: Measurement[] = [];
    const loginRuns: Measurement[] = [];
    for (let r = 1; r <= ctx.options.repeats; r++) {
      alone.push(await runLoad(ctx.pinning, readSpec, ctx.workDir, service));
      ctx.log(`W5: repeat ${r}/${ctx.options.repeats}: W1 alone: ${describe(alone.at(-1)!)}`);
      const [read, login] = await Promise.all([runLoad(ctx.pinning, readSpec, ctx.workDir), runLoad(ctx.pinning, loginSpec, ctx.workDir)]);
      during.push(read);
      loginRuns.push(login);
      ctx.log(`W5: repeat ${r}/${ctx.options.repeats}: W1 during logins: ${describe(read)}; logins: ${describe(login)}`);
    }
    const rss = service.peakRssBytes();
    const aloneFigures = figuresOf(alone, undefined);
    const duringFigures = { ...figuresOf(during, rss), cpuMsPerRequest: undefined };
    const loginFigures = { ...figuresOf(loginRuns, rss), cpuMsPerRequest: undefined };
    const slowdown = duringFigures.p99 / aloneFigures.p99;
    ctx.rows.push({
      label: 'W5a W1 alone (same server, in turn with W5b)',
      figures: aloneFigures,
      ratio: ceilingRatio(ctx, aloneFigures, 'W1'),
    });
    ctx.rows.push({
      label: 'W5b W1 while W4 runs',
      figures: duringFigures,
      ratio: ceilingRatio(ctx, duringFigures, 'W1'),
      target: ctx.onPostgres ? undefined : 'p99 ≤ 2 × W5a p99',
      met: ctx.onPostgres ? undefined : slowdown <= 2,
      note: `p99 is ${slowdown.toFixed(2)} × W1's alone`,
    });
    ctx.rows.push({
      label: 'W5c W4 while W1 runs',
      figures: loginFigures,
      ratio: ctx.argon2Limit
        ? { value: loginFigures.requestsPerSecond / ctx.argon2Limit, of: `argon2id limit (${Math.round(ctx.argon2Limit)}/s)` }
        : undefined,
    });
  } finally {
    await service.stop();
  }
}

/** W6: W1 on the main database and on a large one, in turn within each repeat. */
export async function w6(ctx: BenchContext): Promise<void> {
  await measureCeiling(ctx, 'W1');
  const big = await createBenchDatabase(ctx.options.db, 'big', ctx.workDir, ctx.options.bigAccounts);
  const size = (n: number) => `${n.toLocaleString('en-US')} accounts`;
  try {
    ctx.log(`W6: seeding ${size(big.accounts)}`);
    const seeded = await seed(big);
    ctx.notes.push(`W6: seeding ${size(big.accounts)} took ${seeded.seconds.toFixed(0)} s.`);
    const small = await startMainService(ctx, 'W6-small');
    let large: ServiceProcess | undefined;
    try {
      large = await startService({ databaseUrl: big.url, pinning: ctx.pinning, dataDir: ctx.workDir, name: 'W6-large' });
      ctx.startups.push({ label: size(big.accounts), ms: large.startupMs });
      const { accounts } = await benchAccounts(large.url, big.url, spreadNumbers(big.accounts, READ_ACCOUNTS));
      const smallReads = profileReads(ctx.readers);
      const largeReads = profileReads(accounts);
      const failure = (await probe(small.url, smallReads[0]!, 200)) ?? (await probe(large.url, largeReads[0]!, 200));
      if (failure) {
        ctx.rows.push({ label: 'W6 W1 on a large database', note: failure });
        return;
      }
      const { runs } = await measureInTurn(ctx, [
        { name: `W6 @ ${size(ctx.main.accounts)}`, target: small, spec: spec(ctx, small.url, smallReads) },
        { name: `W6 @ ${size(big.accounts)}`, target: large, spec: spec(ctx, large.url, largeReads) },
      ]);
      const smallFigures = figuresOf(runs[0]!, small.peakRssBytes());
      const largeFigures = figuresOf(runs[1]!, large.peakRssBytes());
      const growth = largeFigures.p50 / smallFigures.p50;
      ctx.rows.push({ label: `W6a W1 @ ${size(ctx.main.accounts)}`, figures: smallFigures, ratio: ceilingRatio(ctx, smallFigures, 'W1') });
      ctx.rows.push({
        label: `W6b W1 @ ${size(big.accounts)}`,
        figures: largeFigures,
        ratio: ceilingRatio(ctx, largeFigures, 'W1'),
        target: ctx.onPostgres ? undefined : 'p50 ≤ 1.3 × W6a p50',
        met: ctx.onPostgres ? undefined : growth <= 1.3,
        note: `p50 is ${growth.toFixed(2)} × and p99 ${(largeFigures.p99 / smallFigures.p99).toFixed(2)} × the small database's`,
      });
    } finally {
      await large?.stop();
      await small.stop();
    }
  } finally {
    if (ctx.options.keep) ctx.notes.push(`Kept W6's database: ${big.url}`);
    else await big.drop();
  }
}

/**
 * W1 (the `a` row) and a variant of it (the `b` row) measured in turn on one service, and the
 * variant's CPU per request against W1's: the median of each repeat's ratio.
 */
async function inTurnWithW1(
  ctx: BenchContext,
  service: ServiceProcess,
  variant: { id: 'W7' | 'W8'; label: string; requests: LoadRequest[]; target: string; met(cpuRatio: number): boolean },
): Promise<void> {
  await inTurnWith(ctx, service, { id: 'W1', requests: profileReads(ctx.readers) }, variant);
}

/**
 * A variant in turn with the workload it is judged against (`base`), on the same service, in
 * turns of a few seconds: its CPU per request against base's, the median over the repeats.
 */
async function inTurnWith(
  ctx: BenchContext,
  service: ServiceProcess,
  base: { id: 'W1' | 'W3'; requests: LoadRequest[] },
  variant: { id: 'W7' | 'W8' | 'W9'; label: string; requests: LoadRequest[]; target: string; met(cpuRatio: number): boolean },
): Promise<void> {
  const { id } = variant;
  const { runs } = await measureInTurn(
    ctx,
    [
      { name: `${id} (${base.id} alone)`, target: service, spec: spec(ctx, service.url, base.requests) },
      { name: id, target: service, spec: spec(ctx, service.url, variant.requests) },
    ],
    { turns: true },
  );
  const own = figuresOf(runs[0]!, service.peakRssBytes());
  const other = figuresOf(runs[1]!, service.peakRssBytes());
  const cpuRatios = runs[1]!.flatMap((run, i) => {
    const ownCpu = runs[0]![i]!.cpuMsPerRequest;
    return ownCpu && run.cpuMsPerRequest !== undefined ? [run.cpuMsPerRequest / ownCpu] : [];
  });
  const cpuRatio = cpuRatios.length > 0 ? median(cpuRatios) : undefined;
  ctx.rows.push({ label: `${id}a ${base.id} (in turn with ${id}b)`, figures: own, ratio: ceilingRatio(ctx, own, 'W1') });
  ctx.rows.push({
    label: `${variant.label} (${id}b)`,
    figures: other,
    ratio: ceilingRatio(ctx, other, 'W1'),
    target: variant.target,
    met: cpuRatio === undefined ? undefined : variant.met(cpuRatio),
    note:
      cpuRatio === undefined
        ? 'no CPU figures'
        : `CPU per request is ${cpuRatio.toFixed(3)} (${Math.min(...cpuRatios).toFixed(3)}–${Math.max(...cpuRatios).toFixed(3)} over the repeats) × ${base.id}'s in the same run`,
  });
}

/** W7's accessors (one per reader, read only): accounts apart from the readers (compare.ts uses them too). */
export function w7ViewerNumbers(total: number, readers: BenchAccount[]): number[] {
  const offset = Math.max(1, Math.floor(total / READ_ACCOUNTS / 4));
  const readerNumbers = new Set(readers.map((a) => a.number));
  return spreadNumbers(total, READ_ACCOUNTS, offset).filter((n) => !readerNumbers.has(n));
}

/** W9's accessors (one per writer, can write): accounts apart from the readers, the writers and W7's viewers. */
export function w9AccessorNumbers(total: number, readers: BenchAccount[], writers: BenchAccount[]): number[] {
  const offset = Math.max(1, Math.floor((3 * total) / READ_ACCOUNTS / 4));
  const taken = new Set([...readers, ...writers].map((a) => a.number));
  return spreadNumbers(total, READ_ACCOUNTS, offset).filter((n) => !taken.has(n));
}

/**
 * W7: an accessor reading a shared profile of W1's shape (docs/sharing.md), in turn with W1 on the
 * same service: its CPU per request against W1's. Accounts apart from the readers and writers
 * each get one reader's app user shared with them, read only, as an accepted invitation leaves it.
 */
export async function w7(ctx: BenchContext): Promise<void> {
  const label = 'W7 GET /app/profiles/{id}/ by an accessor (shared, read only)';
  const viewerNumbers = w7ViewerNumbers(ctx.main.accounts, ctx.readers);
  if (viewerNumbers.length < ctx.readers.length) {
    ctx.rows.push({ label, note: 'not measured: too few accounts for accessors apart from the readers' });
    return;
  }
  const service = await startMainService(ctx, 'W7');
  try {
    const { accounts: viewers } = await benchAccounts(service.url, ctx.main.url, viewerNumbers.slice(0, ctx.readers.length));
    await shareWith(ctx.main.url, ctx.readers, viewers);
    const reads = profileReads(ctx.readers);
    const sharedReads = profileReads(byAccessors(ctx.readers, viewers));
    const failure = (await probe(service.url, reads[0]!, 200)) ?? (await probe(service.url, sharedReads[0]!, 200));
    if (failure) {
      ctx.rows.push({ label, note: failure });
      return;
    }
    await inTurnWithW1(ctx, service, {
      id: 'W7',
      label,
      requests: sharedReads,
      target: 'CPU per request ≤ 1.1 × W7a',
      met: (cpuRatio) => cpuRatio <= 1.1,
    });
  } finally {
    await service.stop();
  }
}

/**
 * W9: an accessor with write access creating items in the owner's topic (docs/sharing.md; each
 * create also writes an event in the owner's activity log, docs/activity.md), in turn with W3 —
 * the owners creating the same items — on the same service: its CPU per request against W3's.
 * Accounts apart from the readers, the writers and W7's viewers each get one writer's app user
 * shared with them, with write access.
 */
export async function w9(ctx: BenchContext): Promise<void> {
  const label = 'W9 POST /app/topics/{id}/items/ by an accessor (shared, can write)';
  const accessorNumbers = w9AccessorNumbers(ctx.main.accounts, ctx.readers, ctx.writers);
  if (accessorNumbers.length < ctx.writers.length) {
    ctx.rows.push({ label, note: 'not measured: too few accounts for accessors apart from the readers and writers' });
    return;
  }
  const service = await startMainService(ctx, 'W9');
  try {
    const { accounts: accessors } = await benchAccounts(service.url, ctx.main.url, accessorNumbers.slice(0, ctx.writers.length));
    await shareWith(ctx.main.url, ctx.writers, accessors, { canWrite: true });
    const creates = itemCreates(ctx.writers);
    const sharedCreates = itemCreates(byAccessors(ctx.writers, accessors));
    const failure = (await probe(service.url, creates[0]!, 201)) ?? (await probe(service.url, sharedCreates[0]!, 201));
    if (failure) {
      ctx.rows.push({ label, note: failure });
      return;
    }
    await inTurnWith(
      ctx,
      service,
      { id: 'W3', requests: creates },
      { id: 'W9', label, requests: sharedCreates, target: 'CPU per request ≤ 1.1 × W9a', met: (cpuRatio) => cpuRatio <= 1.1 },
    );
  } finally {
    await service.stop();
  }
}

/**
 * W8: W1 sent with If-None-Match holding the current tag (docs/offline-and-live.md: a client revalidating
 * what it has), answered 304 with no body; in turn with W1 on the same service, its CPU per
 * request against W1's.
 */
export async function w8(ctx: BenchContext): Promise<void> {
  const label = 'W8 GET /app/profiles/{id}/ with If-None-Match (304)';
  const service = await startMainService(ctx, 'W8');
  try {
    const reads = profileReads(ctx.readers);
    const revalidations: LoadRequest[] = [];
    for (const read of reads) {
      const response = await fetch(service.url + read.path, { headers: read.headers });
      await response.arrayBuffer();
      const tag = response.headers.get('etag');
      if (response.status !== 200 || tag === null) {
        ctx.rows.push({
          label,
          note: `not measured: ${read.path.replace(/\d+/g, '{id}')} answered ${response.status}${tag === null ? ' without an ETag' : ''}`,
        });
        return;
      }
      revalidations.push({ ...read, headers: { ...read.headers, 'if-none-match': tag } });
    }
    const failure = await probe(service.url, revalidations[0]!, 304);
    if (failure) {
      ctx.rows.push({ label, note: failure });
      return;
    }
    await inTurnWithW1(ctx, service, {
      id: 'W8',
      label,
      requests: revalidations,
      target: 'CPU per request below W8a',
      met: (cpuRatio) => cpuRatio < 1,
    });
  } finally {
    await service.stop();
  }
}

export const STEPS = { W1: w1, W1u: w1u, W1w: w1w, W2: w2, W4: w4, W5: w5, W6: w6, W7: w7, W8: w8, W3: w3, W9: w9 } as const;

export function startupLines(ctx: BenchContext): string[] {
  const groups = new Map<string, number[]>();
  for (const s of ctx.startups) groups.set(s.label, [...(groups.get(s.label) ?? []), s.ms]);
  return [...groups].map(([label, ms]) => {
    const worst = Math.max(...ms);
    return (
      `Start-up to the first \`/health\` 200 on an existing database of ${label}: median ${median(ms).toFixed(0)} ms, ` +
      `worst ${worst.toFixed(0)} ms over ${ms.length} start${ms.length === 1 ? '' : 's'} (target ≤ 1,000 ms: ${worst <= 1000 ? '✓' : '✗'})`
    );
  });
}
