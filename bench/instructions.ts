// Instructions per request of a cached read (W1: GET /app/profiles/{id}/; `--what items`: W2's
// GET /app/topics/{id}/items/; `--what after-write`: W1w's read, the profile read right after
// one of its list entries was changed), counted by valgrind's callgrind on the service's main
// thread.
// A count does not move with the host's speed as CPU time does, so two builds can be told apart
// by a few per cent in one run each (bench/README.md, "Instructions per read").
//
//   npm run seed -- --accounts 20 --db <url>         (in each tree, each on a database of its own)
//   npx node --import tsx bench/instructions.ts [--reads 2000] [--warmup 4000] [--rounds 1]
//     [--what profile|items|after-write] [--off] <tree>=<url> [<tree>=<url> …]
//
// A tree is a checkout of the project with node_modules and a build (`npm run build`). Each
// tree's service is logged in to once without valgrind, then started under callgrind with the
// counting off; after `--warmup` reads the counting is turned on for `--reads` reads, one at a
// time, and then for as long again with no request: what the service does by the clock (its
// background passes, its event-loop monitor) is counted there and taken away. After a write,
// the writes are counted too, alone, and taken away as well. `--off` measures each tree again
// with the rendering cache off (W1w-off, W1u).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { plainHttp, seededProfiles } from './plain-http.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    reads: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '1' },
    port: { type: 'string', default: '8791' },
    accounts: { type: 'string', default: '20' },
    what: { type: 'string', default: 'profile' },
    off: { type: 'boolean', default: false },
  },
});
const WHAT = ['profile', 'items', 'after-write'];
if (!WHAT.includes(values.what!)) throw new Error(`--what: one of ${WHAT.join(', ')}`);
const afterWrite = values.what === 'after-write';
const reads = Number(values.reads);
const port = Number(values.port);
const work = mkdtempSync(join(tmpdir(), 'profile-instructions-'));
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
// valgrind's control channel is named after these; the service and callgrind_control must agree.
const CONTROL_ENV = { USER: 'bench', LOGNAME: 'bench', HOST: '127.0.0.1' };

interface Target {
  path: string;
  token: string;
  /** After a write: the list entry of the profile that is changed before each read. */
  entryId?: number;
}

const call = plainHttp(port, agent);

function serviceEnv(databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...extra,
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...CONTROL_ENV,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    RATE_LIMITS: 'off',
    // Under valgrind every turn of the event loop is slow: no answer may be shed as overload.
    OVERLOAD_EVENT_LOOP_DELAY: '0',
    MAIL_DIR: join(work, 'mail'),
    MEDIA_STORAGE: `fs:${join(work, 'media')}`,
  };
}

async function started(child: ChildProcess, seconds: number): Promise<void> {
  for (let waited = 0; waited < seconds * 5; waited++) {
    try {
      if ((await call('GET', '/health', {})).status === 200) return;
    } catch {}
    if (child.exitCode !== null) throw new Error(`the service exited (code ${child.exitCode})`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the service did not answer /health within ${seconds} s`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Each seeded account's token and the path it reads, from a service started without valgrind. */
async function targetsOf(tree: string, databaseUrl: string): Promise<Target[]> {
  const child = spawn(process.execPath, [join(tree, 'dist/main.js')], { cwd: work, env: serviceEnv(databaseUrl), stdio: 'ignore' });
  try {
    await started(child, 60);
    const targets: Target[] = [];
    for (const { token, profileId } of await seededProfiles(call, Number(values.accounts))) {
      const auth = { authorization: `Token ${token}` };
      const profilePath = `/app/profiles/${profileId}/`;
      if (values.what === 'items') {
        const detail = JSON.parse((await call('GET', profilePath, auth)).text) as { topics: { id: number }[] };
        targets.push({ path: `/app/topics/${detail.topics[0]!.id}/items/`, token });
      } else if (afterWrite) {
        const detail = JSON.parse((await call('GET', profilePath, auth)).text) as {
          topics: { items: { list_content: { entries: { id: number }[] } | null }[] }[];
        };
        const entry = detail.topics.flatMap((t) => t.items.flatMap((i) => i.list_content?.entries ?? []))[0];
        if (!entry) throw new Error(`${profilePath}: no list entry to write`);
        targets.push({ path: profilePath, token, entryId: entry.id });
      } else {
        targets.push({ path: profilePath, token });
      }
    }
    return targets;
  } finally {
    await stop(child);
  }
}

let written = 0;

/** `count` requests one at a time: each target's read, after its write when `write`, or its write alone when `read` is false. */
async function readAll(targets: Target[], count: number, write = false, read = true): Promise<void> {
  for (let i = 0; i < count; i++) {
    const target = targets[i % targets.length]!;
    const auth = { authorization: `Token ${target.token}` };
    if (write) {
      const path = `/app/list-entries/${target.entryId}/`;
      const answer = await call('PATCH', path, auth, { text: `Written ${written++}` });
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
    }
    if (!read) continue;
    const answer = await call('GET', target.path, auth);
    if (answer.status !== 200) throw new Error(`${target.path}: ${answer.status}`);
  }
}

/** The main thread's instructions in callgrind's dump `n` of the process `pid`. */
function dumped(pid: number, n: number): number {
  const text = readFileSync(join(work, `callgrind.${pid}.${n}-01`), 'utf8');
  const totals = /^totals:\s+(\d+)/m.exec(text) ?? /^summary:\s+(\d+)/m.exec(text);
  if (!totals) throw new Error(`no totals in callgrind's dump ${n}`);
  return Number(totals[1]);
}

/**
 * Instructions per read on the main thread: while reading, and what is taken away from that: as
 * long with no request, and (after a write) the writes counted alone, less their own time idle.
 */
async function measure(
  tree: string,
  databaseUrl: string,
  targets: Target[],
  extraEnv: Record<string, string>,
): Promise<{ reading: number; idle: number; writes: number }> {
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(work, 'callgrind.%p')}`,
      process.execPath,
      '--max-semi-space-size=8',
      join(tree, 'dist/main.js'),
    ],
    { cwd: work, env: serviceEnv(databaseUrl, extraEnv), stdio: 'ignore' },
  );
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, String(child.pid)], { env: { ...process.env, ...CONTROL_ENV }, stdio: 'ignore' });
  try {
    await started(child, 600);
    await readAll(targets, Number(values.warmup), afterWrite);
    control('--instr=on');
    let start = performance.now();
    await readAll(targets, reads, afterWrite);
    const ms = performance.now() - start;
    control('--dump');
    await new Promise((r) => setTimeout(r, ms));
    control('--dump');
    if (!afterWrite) return { reading: dumped(child.pid!, 1) / reads, idle: dumped(child.pid!, 2) / reads, writes: 0 };
    start = performance.now();
    await readAll(targets, reads, true, false);
    const writeMs = performance.now() - start;
    control('--dump');
    const idlePerMs = dumped(child.pid!, 2) / ms;
    return {
      reading: dumped(child.pid!, 1) / reads,
      idle: dumped(child.pid!, 2) / reads,
      writes: (dumped(child.pid!, 3) - idlePerMs * writeMs) / reads,
    };
  } finally {
    await stop(child);
  }
}

const trees = positionals.map((given) => {
  const at = given.indexOf('=');
  if (at < 0) throw new Error(`${given}: give each tree as <tree>=<database url>`);
  return { tree: resolve(given.slice(0, at)), databaseUrl: given.slice(at + 1) };
});
if (trees.length === 0) throw new Error('give at least one <tree>=<database url>');
const prepared = [];
for (const { tree, databaseUrl } of trees) prepared.push({ tree, databaseUrl, targets: await targetsOf(tree, databaseUrl) });
/** Each tree as given, and with `--off` again with the rendering cache off. */
const runs = prepared.flatMap((p) => [
  { ...p, name: p.tree, env: {} as Record<string, string> },
  ...(values.off ? [{ ...p, name: `${p.tree} (cache off)`, env: { RENDER_CACHE_BYTES: '0' } }] : []),
]);
const counts = new Map<string, number[]>(runs.map((r) => [r.name, []]));
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const { name, tree, databaseUrl, targets, env } of runs) {
    const { reading, idle, writes } = await measure(tree, databaseUrl, targets, env);
    const net = reading - idle - writes;
    counts.get(name)!.push(net);
    const k = (n: number) => `${Math.round(n / 1000)}k`;
    const less = afterWrite ? `, ${k(writes)} for its write` : '';
    console.log(`round ${round} ${name}: ${k(net)} instructions per read (${k(reading)} while reading, ${k(idle)} as long idle${less})`);
  }
}
agent.destroy();
const first = counts.get(runs[0]!.name)!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const [name, xs] of counts)
  console.log(`${name}: ${Math.round(mean(xs)).toLocaleString('en')} per read, ${(mean(xs) / mean(first)).toFixed(3)} × the first`);
