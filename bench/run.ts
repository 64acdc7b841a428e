// `npm run bench -- [options]` (see bench/README.md): builds, seeds, runs the workloads
// against `node dist/main.js` and the ceilings, prints the Markdown table and writes it to
// bench/results/. Missed targets are reported, never turned into a failing exit code.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { describeWorkingTree, workingTree } from './build-at-ref.ts';
import { runCompare } from './compare.ts';
import { createBenchDatabase, describePostgres, seed } from './fixtures.ts';
import { parseOptions, USAGE, UsageError, WORKLOADS, type BenchOptions } from './options.ts';
import { detectPinning } from './pinning.ts';
import { measureArgon2Limit, productionNodeFlags, ROOT } from './processes.ts';
import { renderReport } from './report.ts';
import { prepare, startupLines, STEPS, type BenchContext } from './workloads.ts';

function generatorDescription(options: BenchOptions): string {
  if (options.generator === 'autocannon') {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules/autocannon/package.json'), 'utf8')) as { version: string };
    return `autocannon ${version} in a child process`;
  }
  let version = 'unknown version';
  try {
    version = /wrk (\S+)/.exec(execFileSync('wrk', ['--version'], { encoding: 'utf8' }))?.[1] ?? version;
  } catch (error) {
    // wrk --version prints its banner and exits with 1.
    version = /wrk (\S+)/.exec(String((error as { stdout?: unknown }).stdout ?? ''))?.[1] ?? version;
  }
  return `wrk ${version}, one thread`;
}

/** argon2id verifications per second on the server CPU, before and after the workloads. */
interface MachineSpeed {
  before: number;
  after: number;
}

function setupLines(options: BenchOptions, pinningDescription: string, postgres: string | undefined, speed: MachineSpeed): string[] {
  const s = (n: number) => `${n} s`;
  return [
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} CPUs available, ${Math.round(totalmem() / 1024 ** 3)} GiB; Node ${process.version}; commit ${describeWorkingTree()}.`,
    `Pinning: ${pinningDescription}.`,
    `Service: \`node ${productionNodeFlags().join(' ')} dist/main.js\` (as \`npm start\`), NODE_ENV=production, LOG_LEVEL=warn, RATE_LIMITS=off, a fresh process per workload; ` +
      (postgres
        ? `${postgres} (the database server is not pinned; its CPU is not in "server CPU" but in "PostgreSQL CPU": ` +
          'its backends for the bench database and its WAL writer, checkpointer and background writer, from /proc).'
        : 'SQLite with the default SQLITE_SYNCHRONOUS=FULL (every acknowledged commit is fsynced).'),
    `Data: ${options.accounts.toLocaleString('en-US')} seeded accounts (each: 1 app user, 1 profile of 5 topics × 10 items, items alternating list and image content); ` +
      'reads use 50 accounts spread over the whole range, one per request in turn; W3 writes under 50 other accounts.',
    `Load: ${generatorDescription(options)}, ${options.connections} connections (W4: ${options.loginConnections}); ` +
      `${s(options.warmupSeconds)} warm-up, ${options.repeats} × ${s(options.durationSeconds)} measured, medians reported.`,
    "Server CPU ms/req: run time of the service process's threads (/proc/<pid>/task/*/schedstat) over the measured stretch, divided by the responses. " +
      'Peak RSS: VmHWM of /proc/<pid>/status at the end of the workload.',
    `Machine speed: ${Math.round(speed.before)} argon2id verifications/s on the server CPU before the workloads, ${Math.round(speed.after)}/s after ` +
      '(pure computation; on a VM it moves between runs, and the ratios to the ceilings move with it: compare runs made at a similar speed, bench/README.md).',
  ];
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  if (options.generator === 'wrk' && spawnSync('wrk', ['--version']).error) {
    console.error(
      'The bench drives its load with wrk, which is not installed: `apt-get install wrk` (Debian), or run with --generator autocannon.',
    );
    process.exit(2);
  }
  const onPostgres = options.db !== 'sqlite';
  const pinning = detectPinning();
  const workDir = mkdtempSync(join(tmpdir(), 'profile-bench-'));
  const started = performance.now();
  const log = (message: string) => {
    const seconds = Math.round((performance.now() - started) / 1000);
    process.stderr.write(`[${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}] ${message}\n`);
  };
  log(`${pinning.description}; working in ${workDir}`);
  if (options.compare) {
    // On 'exit', so that an interrupted comparison (it handles Ctrl-C) leaves nothing either.
    if (!options.keep) process.once('exit', () => rmSync(workDir, { recursive: true, force: true }));
    console.log(await runCompare(options, pinning, workDir, log));
    return;
  }

  const mainDb = await createBenchDatabase(options.db, 'main', workDir, options.accounts);
  const ctx: BenchContext = {
    options,
    pinning,
    workDir,
    onPostgres,
    main: mainDb,
    readers: [],
    writers: [],
    bodies: {},
    ceilings: {},
    startups: [],
    rows: [],
    notes: [],
    log,
  };
  const speed: MachineSpeed = { before: Number.NaN, after: Number.NaN };
  try {
    log(`seeding ${options.accounts.toLocaleString('en-US')} accounts`);
    await seed(mainDb);
    await prepare(ctx);
    speed.before = await measureArgon2Limit(pinning, 2);
    for (const [name, step] of Object.entries(STEPS)) {
      if (!options.only.has(name as (typeof WORKLOADS)[number])) continue;
      log(`${name}`);
      try {
        await step(ctx);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log(`${name} failed: ${message}`);
        ctx.rows.push({ label: name, note: `failed: ${message.split('\n')[0]}` });
      }
    }
    speed.after = await measureArgon2Limit(pinning, 2);
  } finally {
    if (options.keep) log(`kept ${workDir} and the main database ${mainDb.url}`);
    else {
      await mainDb.drop();
      rmSync(workDir, { recursive: true, force: true });
    }
  }

  const database = onPostgres ? 'PostgreSQL' : 'SQLite';
  const date = new Date();
  const partial = options.only.size < WORKLOADS.length ? `-${[...options.only].sort().join('-')}` : '';
  const markdown = renderReport({
    title: `Benchmark: ${database}${options.quick ? ' (quick)' : ''}${partial ? ` (${[...options.only].sort().join(', ')} only)` : ''}`,
    date,
    latencies: options.generator === 'wrk' ? 'all responses as wrk saw them' : '2xx responses as the load generator saw them',
    rows: ctx.rows,
    startup: startupLines(ctx),
    setup: setupLines(options, pinning.description, onPostgres ? await describePostgres(options.db) : undefined, speed),
    notes: ctx.notes,
  });
  const resultsDir = join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  // The date and the commit in the name: the file says when and of what, and a second run
  // of the same day and code replaces the first.
  const tree = workingTree();
  const file = join(
    resultsDir,
    `${date.toISOString().slice(0, 10)}-${tree.hash}${tree.dirty ? '-dirty' : ''}-${database.toLowerCase()}${options.quick ? '-quick' : ''}${partial}.md`,
  );
  writeFileSync(file, markdown);
  console.log(markdown);
  log(`written to ${file.slice(ROOT.length + 1)}`);
}

main().catch((error) => {
  console.error(`The benchmark could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
