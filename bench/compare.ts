// `npm run bench -- --compare <ref>`: the working tree's build ("new") against the build of
// another commit ("old", bench/build-at-ref.ts), both pinned to the server CPU under the same
// load, measured in pairs that alternate which goes first, and within a pair in turns of a
// few seconds each. Each pair shares whatever the machine is doing in that minute, so the
// ratio new ÷ old within a pair is steadier than absolute figures of a shared host. Each side
// has its own database, seeded alike by its own build's seeder (its schema is its own).
import { cpus } from 'node:os';
import { buildAtRef, describeWorkingTree } from './build-at-ref.ts';
import { benchAccounts, createBenchDatabase, seed, shareWith, spreadNumbers, type BenchAccount, type BenchDatabase } from './fixtures.ts';
import { median } from './figures.ts';
import { runLoad, type Measurement } from './load-runner.ts';
import type { LoadRequest, LoadSpec } from './load-types.ts';
import type { BenchOptions, WorkloadId } from './options.ts';
import type { Pinning } from './pinning.ts';
import { startService, type ServiceProcess } from './processes.ts';
import { inTurns, stretchSeconds, summed, TURNS } from './turns.ts';
import { byAccessors, itemCreates, logins, profileReads, topicItemReads } from './requests.ts';
import { SEED_PASSWORD } from '../src/cli/seed-data.ts';
import {
  type EntryWrite,
  entriesToWrite,
  NO_RENDER_CACHE,
  type PairsRun,
  READ_ACCOUNTS,
  runPairs,
  w7ViewerNumbers,
  w9AccessorNumbers,
} from './workloads.ts';

/** bench/README.md: a CPU-per-request ratio above this on W1–W3 needs a reason in the commit. */
const RULE = { limit: 1.05, workloads: new Set<WorkloadId>(['W1', 'W2', 'W3']) };

interface Side {
  name: 'new' | 'old';
  root: string | undefined;
  main: BenchDatabase;
  readers: BenchAccount[];
  writers: BenchAccount[];
  /** W7: each reader's app user shared read-only with one of these, logged in (the same accounts on both sides). */
  viewers: BenchAccount[];
  /** W9: each writer's app user shared with write access with one of these. */
  writeAccessors: BenchAccount[];
  big?: { database: BenchDatabase; readers: BenchAccount[] };
}

interface Compared {
  id: WorkloadId;
  what: string;
  requests(side: Side): LoadRequest[];
  database(side: Side): BenchDatabase;
  expected: number;
  login?: boolean;
  env?: Record<string, string>;
  /** W1w: measured by rounds of writes and then reads (bench/workloads.ts), not under wrk; `requests` are what the first pair probes. */
  readsAfterWrites?: true;
}

const mainDb = (side: Side) => side.main;
/** The order of a full run: W3 last, since it is the one that adds data. */
const WORKLOADS: Compared[] = [
  { id: 'W1', what: 'GET /app/profiles/{id}/', requests: (s) => profileReads(s.readers), database: mainDb, expected: 200 },
  {
    id: 'W1u',
    what: 'W1, rendering cache off',
    requests: (s) => profileReads(s.readers),
    database: mainDb,
    expected: 200,
    env: NO_RENDER_CACHE,
  },
  {
    id: 'W1w',
    what: 'W1 read after a one-entry write to one of its topics',
    requests: (s) => profileReads(s.readers),
    database: mainDb,
    expected: 200,
    readsAfterWrites: true,
  },
  { id: 'W2', what: 'GET /app/topics/{id}/items/', requests: (s) => topicItemReads(s.readers), database: mainDb, expected: 200 },
  {
    id: 'W4',
    what: 'POST /auth/login/',
    requests: (s) => logins(s.readers, SEED_PASSWORD),
    database: mainDb,
    expected: 200,
    login: true,
  },
  {
    id: 'W6',
    what: 'W1 on the large database',
    requests: (s) => profileReads(s.big!.readers),
    database: (s) => s.big!.database,
    expected: 200,
  },
  {
    id: 'W7',
    what: 'W1 by an accessor (shared, read only)',
    requests: (s) => profileReads(byAccessors(s.readers, s.viewers)),
    database: mainDb,
    expected: 200,
  },
  { id: 'W3', what: 'POST /app/topics/{id}/items/', requests: (s) => itemCreates(s.writers), database: mainDb, expected: 201 },
  {
    id: 'W9',
    what: 'W3 by an accessor (shared, can write)',
    requests: (s) => itemCreates(byAccessors(s.writers, s.writeAccessors)),
    database: mainDb,
    expected: 201,
  },
];

interface Pair {
  cpu?: number;
  /** Service + PostgreSQL CPU per request (PostgreSQL only). */
  total?: number;
  rps: number;
  runs: Record<Side['name'], Measurement>;
}

interface Result {
  workload: Compared;
  pairs: Pair[];
  note?: string;
}

async function prepareSide(
  options: BenchOptions,
  pinning: Pinning,
  workDir: string,
  name: Side['name'],
  root: string | undefined,
  log: (m: string) => void,
): Promise<Side> {
  const main = await createBenchDatabase(options.db, `${name}_main`, workDir, options.accounts);
  const side: Side = { name, root, main, readers: [], writers: [], viewers: [], writeAccessors: [] };
  try {
    await fill(side, options, pinning, workDir, log);
  } catch (error) {
    await main.drop();
    await side.big?.database.drop();
    throw error;
  }
  return side;
}

/** Seeds the side's databases and logs its readers and writers in through its own service. */
async function fill(side: Side, options: BenchOptions, pinning: Pinning, workDir: string, log: (m: string) => void): Promise<void> {
  const { name, root, main } = side;
  log(`${name}: seeding ${options.accounts.toLocaleString('en-US')} accounts`);
  await seed(main, root);
  const readers = spreadNumbers(main.accounts, READ_ACCOUNTS);
  const offset = Math.floor(main.accounts / readers.length / 2);
  const writers = offset > 0 ? spreadNumbers(main.accounts, READ_ACCOUNTS, offset) : readers;
  const service = await startService({ databaseUrl: main.url, pinning, dataDir: workDir, name: `${name}-setup`, root });
  try {
    const { accounts } = await benchAccounts(service.url, main.url, [...new Set([...readers, ...writers])]);
    const byNumber = new Map(accounts.map((a) => [a.number, a]));
    side.readers = readers.map((n) => byNumber.get(n)!);
    side.writers = writers.map((n) => byNumber.get(n)!);
    // Shared only when measured: a grant is then in the accessors' every token check.
    if (options.only.has('W7')) {
      const numbers = w7ViewerNumbers(main.accounts, side.readers).slice(0, side.readers.length);
      side.viewers = (await benchAccounts(service.url, main.url, numbers)).accounts;
      await shareWith(main.url, side.readers, side.viewers);
    }
    if (options.only.has('W9')) {
      const numbers = w9AccessorNumbers(main.accounts, side.readers, side.writers).slice(0, side.writers.length);
      side.writeAccessors = (await benchAccounts(service.url, main.url, numbers)).accounts;
      await shareWith(main.url, side.writers, side.writeAccessors, { canWrite: true });
    }
  } finally {
    await service.stop();
  }
  if (options.only.has('W6')) {
    const database = await createBenchDatabase(options.db, `${name}_big`, workDir, options.bigAccounts);
    side.big = { database, readers: [] };
    log(`${name}: seeding ${options.bigAccounts.toLocaleString('en-US')} accounts for W6`);
    await seed(database, root);
    const big = await startService({ databaseUrl: database.url, pinning, dataDir: workDir, name: `${name}-setup-big`, root });
    try {
      side.big.readers = (await benchAccounts(big.url, database.url, spreadNumbers(database.accounts, READ_ACCOUNTS))).accounts;
    } finally {
      await big.stop();
    }
  }
}

async function probe(url: string, request: LoadRequest, expected: number): Promise<string | undefined> {
  const response = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body });
  await response.arrayBuffer();
  return response.status === expected ? undefined : `${request.method} ${request.path.replace(/\d+/g, '{id}')} answered ${response.status}`;
}

async function compareWorkload(
  options: BenchOptions,
  pinning: Pinning,
  workDir: string,
  sides: Side[],
  workload: Compared,
  log: (m: string) => void,
): Promise<Result> {
  const pairs: Pair[] = [];
  // Each pair runs on a fresh process of each build: a process keeps what its start happened to
  // give it (where the JIT put its code, how its heap is laid out) for its whole life, and two
  // processes of the same build have read 9 % apart pair after pair (bench/README.md).
  for (let p = 0; p < options.repeats; p++) {
    const services: ServiceProcess[] = [];
    try {
      for (const side of sides) {
        const databaseUrl = workload.database(side).url;
        const name = `${workload.id}-${side.name}-${p + 1}`;
        services.push(await startService({ databaseUrl, pinning, dataDir: workDir, name, root: side.root, env: workload.env }));
      }
      const specs: LoadSpec[] = sides.map((side, i) => ({
        generator: options.generator,
        url: services[i]!.url,
        connections: workload.login ? options.loginConnections : options.connections,
        durationSeconds: options.durationSeconds,
        requests: workload.requests(side),
      }));
      if (p === 0) {
        for (const [i, side] of sides.entries()) {
          const failure = await probe(services[i]!.url, specs[i]!.requests[0]!, workload.expected);
          if (failure) return { workload, pairs: [], note: `not measured: on ${side.name}, ${failure}` };
        }
      }
      log(`${workload.id} pair ${p + 1}/${options.repeats}: fresh processes, warming each up for ${options.warmupSeconds} s`);
      // Alternating which goes first, so that neither always follows the other's heat.
      const order = p % 2 === 0 ? [0, 1] : [1, 0];
      let runs: Pair['runs'];
      if (workload.readsAfterWrites) {
        runs = await readsAfterWritesInTurns(options, sides, services, order);
      } else {
        for (let i = 0; i < sides.length; i++) {
          await runLoad(pinning, { ...specs[i]!, durationSeconds: options.warmupSeconds }, workDir, services[i]);
        }
        runs = await loadInTurns(options, pinning, workDir, sides, specs, services, order);
      }
      const pair: Pair = { rps: runs.new.requestsPerSecond / runs.old.requestsPerSecond, runs };
      if (runs.new.cpuMsPerRequest && runs.old.cpuMsPerRequest) pair.cpu = runs.new.cpuMsPerRequest / runs.old.cpuMsPerRequest;
      const total = (m: Measurement) =>
        m.cpuMsPerRequest !== undefined && m.databaseCpuMsPerRequest !== undefined
          ? m.cpuMsPerRequest + m.databaseCpuMsPerRequest
          : undefined;
      const [totalNew, totalOld] = [total(runs.new), total(runs.old)];
      if (totalNew !== undefined && totalOld) pair.total = totalNew / totalOld;
      pairs.push(pair);
      log(
        `${workload.id} pair ${p + 1}/${options.repeats} (${sides[order[0]!]!.name} first): CPU/req ${spread([pair.cpu])}, req/s ${pair.rps.toFixed(3)}`,
      );
    } finally {
      for (const service of services) await service.stop();
    }
  }
  return { workload, pairs };
}

/** The pair's measurement of each build: its wrk stretches, taken in turns, summed. */
async function loadInTurns(
  options: BenchOptions,
  pinning: Pinning,
  workDir: string,
  sides: Side[],
  specs: LoadSpec[],
  services: ServiceProcess[],
  order: number[],
): Promise<Pair['runs']> {
  const measured = await inTurns(order, stretchSeconds(options), (i, durationSeconds) =>
    runLoad(pinning, { ...specs[i]!, durationSeconds }, workDir, services[i]),
  );
  return bySide(sides, measured.map(summed));
}

/**
 * W1w's pair: each build warmed up with rounds of writes and reads, then measured in turns; a
 * build's CPU per read is that of its read phases alone (workloads.ts).
 */
async function readsAfterWritesInTurns(
  options: BenchOptions,
  sides: Side[],
  services: ServiceProcess[],
  order: number[],
): Promise<Pair['runs']> {
  const writes: EntryWrite[][] = [];
  for (const [i, side] of sides.entries()) {
    const found = await entriesToWrite(services[i]!.url, side.readers);
    if (typeof found === 'string') throw new Error(`on ${side.name}, ${found}`);
    writes.push(found);
    await runPairs(services[i]!, found, options.warmupSeconds);
  }
  const measured = await inTurns(order, stretchSeconds(options), (i, seconds) => runPairs(services[i]!, writes[i]!, seconds));
  return bySide(sides, measured.map(readsAsMeasurement));
}

/** One measurement per side, by the side's name. */
function bySide(sides: Side[], measurements: Measurement[]): Pair['runs'] {
  return Object.fromEntries(sides.map((side, i) => [side.name, measurements[i]!])) as Pair['runs'];
}

/** Turns of reads after writes as one measurement: the reads are its responses, their CPU the read phases'. */
function readsAsMeasurement(runs: PairsRun[]): Measurement {
  const reads = runs.reduce((total, run) => total + run.reads, 0);
  const failures = runs.reduce((total, run) => total + run.failures, 0);
  const seconds = runs.reduce((total, run) => total + run.seconds, 0);
  const latencies = runs.flatMap((run) => run.readLatencies).sort((a, b) => a - b);
  const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? Number.NaN;
  const perRead = (cpu: (run: PairsRun) => number | undefined) =>
    runs.every((run) => cpu(run) !== undefined) && reads > 0
      ? (runs.reduce((total, run) => total + cpu(run)!, 0) * 1000) / reads
      : undefined;
  return {
    ok: reads - failures,
    other: failures,
    errors: 0,
    timeouts: 0,
    statusCodes: {},
    seconds,
    requestsPerSecond: seconds > 0 ? (reads - failures) / seconds : 0,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: latencies.at(-1) ?? Number.NaN,
    loadCpuShare: 0,
    cpuMsPerRequest: perRead((run) => run.serviceCpu),
    databaseCpuMsPerRequest: perRead((run) => run.databaseCpu),
  };
}

/** "1.013 (0.991–1.040)": the median and the range over the pairs. */
function spread(values: (number | undefined)[]): string {
  const known = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (known.length === 0) return '—';
  if (known.length === 1) return known[0]!.toFixed(3);
  return `${median(known).toFixed(3)} (${Math.min(...known).toFixed(3)}–${Math.max(...known).toFixed(3)})`;
}

function absolute(pairs: Pair[], side: Side['name'], onPostgres: boolean): string {
  const runs = pairs.map((p) => p.runs[side]);
  const cpu = median(runs.flatMap((r) => (r.cpuMsPerRequest === undefined ? [] : [r.cpuMsPerRequest])));
  const db = median(runs.flatMap((r) => (r.databaseCpuMsPerRequest === undefined ? [] : [r.databaseCpuMsPerRequest])));
  const rps = median(runs.map((r) => r.requestsPerSecond));
  return `${cpu.toFixed(3)}${onPostgres ? ` + ${db.toFixed(3)}` : ''} ms, ${Math.round(rps).toLocaleString('en-US')}/s`;
}

function render(results: Result[], options: BenchOptions, pinning: Pinning, old: { ref: string; commit: string }): string {
  const onPostgres = options.db !== 'sqlite';
  const database = onPostgres ? 'PostgreSQL' : 'SQLite';
  const cpuColumns = onPostgres ? ['service CPU/req', 'service + PostgreSQL CPU/req'] : ['CPU/req'];
  const lines = [
    `# Compare on ${database}: working tree (${describeWorkingTree()}) ÷ ${old.ref} (${old.commit})`,
    '',
    `${new Date().toISOString().replace('T', ' ').slice(0, 16)} UTC. Ratios new ÷ old: median (min–max) over the pairs; below 1 is cheaper (CPU) or slower (req/s).`,
    '',
    `| workload | pairs | ${cpuColumns.map((c) => `${c} new ÷ old`).join(' | ')} | req/s new ÷ old | new: CPU/req${onPostgres ? ' (service + PostgreSQL)' : ''}, req/s | old: same | rule |`,
    `|---|---:|${cpuColumns.map(() => '---:|').join('')}---:|---:|---:|---|`,
  ];
  for (const { workload, pairs, note } of results) {
    const label = `${workload.id} ${workload.what}`;
    if (pairs.length === 0) {
      lines.push(`| ${label} (${note}) | 0 |${cpuColumns.map(() => ' — |').join('')} — | — | — | — |`);
      continue;
    }
    const cpu = median(pairs.flatMap((p) => (p.cpu === undefined ? [] : [p.cpu])));
    const rule = RULE.workloads.has(workload.id) ? (cpu > RULE.limit ? `✗ above ${RULE.limit}: say why in the commit` : '✓') : '—';
    lines.push(
      `| ${[
        label,
        pairs.length,
        spread(pairs.map((p) => p.cpu)),
        ...(onPostgres ? [spread(pairs.map((p) => p.total))] : []),
        spread(pairs.map((p) => p.rps)),
        absolute(pairs, 'new', onPostgres),
        absolute(pairs, 'old', onPostgres),
        rule,
      ].join(' | ')} |`,
    );
  }
  lines.push(
    '',
    `- Machine: ${cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}; ${pinning.description}; both builds on the server CPU, one loaded at a time.`,
    `- Each pair: a fresh process of each build, warmed up for ${options.warmupSeconds} s and given one turn that is not counted, then ${options.durationSeconds} s of each under ${options.generator} (${options.connections} connections, W4 ${options.loginConnections}) in ${TURNS} turns, the builds taking turns (ABBA…); pairs alternate which build goes first.`,
    ...(results.some((r) => r.workload.readsAfterWrites)
      ? [
          `- W1w, not under ${options.generator}: rounds of ${READ_ACCOUNTS} list-entry writes at once, a pause, then the ${READ_ACCOUNTS} profiles read at once; CPU per read over the read phases only (bench/README.md, W1w), in the same turns.`,
        ]
      : []),
    `- Each build on its own ${database} database of ${options.accounts.toLocaleString('en-US')} seeded accounts${options.only.has('W6') ? ` (W6: ${options.bigAccounts.toLocaleString('en-US')})` : ''}, seeded by its own seeder.`,
    `- Rule (bench/README.md): a CPU-per-request ratio above ${RULE.limit} on W1–W3 needs a reason in the commit.`,
    '',
  );
  return lines.join('\n');
}

export async function runCompare(options: BenchOptions, pinning: Pinning, workDir: string, log: (m: string) => void): Promise<string> {
  const ref = options.compare!;
  const old = await buildAtRef(ref, log);
  const sides: Side[] = [];
  try {
    sides.push(await prepareSide(options, pinning, workDir, 'new', undefined, log));
    sides.push(await prepareSide(options, pinning, workDir, 'old', old.root, log));
    const results: Result[] = [];
    for (const workload of WORKLOADS) {
      if (!options.only.has(workload.id)) continue;
      log(workload.id);
      try {
        results.push(await compareWorkload(options, pinning, workDir, sides, workload, log));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log(`${workload.id} failed: ${message}`);
        results.push({ workload, pairs: [], note: `failed: ${message.split('\n')[0]}` });
      }
    }
    return render(results, options, pinning, { ref, commit: old.commit });
  } finally {
    if (options.keep) log(`kept the databases: ${sides.map((s) => s.main.url).join(', ')}`);
    else
      for (const side of sides) {
        await side.main.drop();
        await side.big?.database.drop();
      }
    old.remove();
  }
}
