// CPU per rendering-cache miss of GET /app/profiles/{id}/ (the W1 shape, with the cache kept
// too small to hold a rendering; `--hits` keeps the default cache): the service's and, on
// PostgreSQL, the database's (its backends and shared writers, bench/postgres-cpu.ts). Builds
// are compared side by side: each source tree given is started in turn, round after round, on
// the same seeded database, so the host's drift falls on both alike.
//
//   npm run seed -- --accounts 20 --db <url>
//   npx node --import tsx bench/miss-cpu.ts --db <url> [--wrk 8 | --reads 3000] [--rounds 3] <tree> [<tree> …]
//
// A tree is a checkout of the project with node_modules (the working tree is `.`). The load is
// wrk (16 connections, the seeded accounts' profiles in turn) with `--wrk <seconds>`, else
// `--concurrency` sequential readers in this process.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { plainHttp, seededProfiles } from './plain-http.ts';
import { postgresCpuSeconds } from './postgres-cpu.ts';
import { cpuCounter } from './proc-stats.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    db: { type: 'string' },
    reads: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '4' },
    port: { type: 'string', default: '8790' },
    hits: { type: 'boolean', default: false },
    accounts: { type: 'string', default: '20' },
    wrk: { type: 'string' },
    'node-option': { type: 'string', multiple: true, default: [] },
  },
});
const databaseUrl = values.db ?? 'sqlite:data/profile-service.db';
const reads = Number(values.reads);
const concurrency = Number(values.concurrency);
const port = Number(values.port);
const trees = positionals.length > 0 ? positionals : ['.'];
const database = databaseUrl.startsWith('postgres') ? new URL(databaseUrl).pathname.slice(1) : undefined;
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

const call = plainHttp(port, agent);

async function start(tree: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--max-semi-space-size=8', ...values['node-option']!, resolve(tree, 'src/main.ts')],
    {
      cwd: tree,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        RENDER_CACHE_BYTES: values.hits ? '32MiB' : '1',
        RATE_LIMITS: 'off',
        OVERLOAD_EVENT_LOOP_DELAY: '0',
        LOG_LEVEL: 'silent',
        MAIL_DIR: '/tmp/perf24/mail',
        MEDIA_STORAGE: 'fs:/tmp/perf24/media',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (let i = 0; i < 300; i++) {
    try {
      if ((await call('GET', '/health', {})).status === 200) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${tree} did not start`);
}

async function measure(tree: string): Promise<{ service: number; database: number }> {
  const child = await start(tree);
  const cpuSeconds = cpuCounter(child.pid!);
  try {
    const targets = (await seededProfiles(call, Number(values.accounts))).map(({ token, profileId }) => ({
      path: `/app/profiles/${profileId}/`,
      token,
    }));
    const run = async (n: number) => {
      let left = n;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (left-- > 0) {
            const target = targets[left % targets.length]!;
            const answer = await call('GET', target.path, { authorization: `Token ${target.token}` });
            if (answer.status !== 200) throw new Error(`${target.path}: ${answer.status}`);
          }
        }),
      );
    };
    if (values.wrk) {
      // wrk (C) as the load: 16 connections, the accounts' profiles in turn, as the bench's W1.
      await run(1000);
      const lua = `local r, n = {}, 0
function init(args) r = { ${targets.map((t) => `wrk.format('GET', '${t.path}', { ['Authorization'] = 'Token ${t.token}' })`).join(', ')} } end
function request() n = n % #r + 1; return r[n] end
function done(s) io.write(string.format('{"requests":%d,"bad":%d}\\n', s.requests, s.errors.status)) end`;
      writeFileSync('/tmp/miss-cpu.lua', lua);
      const service0 = cpuSeconds()!;
      const database0 = database ? postgresCpuSeconds(database)! : 0;
      const out = execFileSync('wrk', ['-t1', '-c16', `-d${values.wrk}s`, '-s', '/tmp/miss-cpu.lua', `http://127.0.0.1:${port}`], {
        encoding: 'utf8',
      });
      const { requests, bad } = JSON.parse(out.trim().split('\n').at(-1)!) as { requests: number; bad: number };
      if (bad > 0) throw new Error(`${bad} of ${requests} answers were not 2xx/3xx`);
      const service = cpuSeconds()! - service0;
      const db = database ? postgresCpuSeconds(database)! - database0 : 0;
      return { service: (service / requests) * 1000, database: (db / requests) * 1000 };
    }
    await run(Math.min(reads, 1000)); // warm-up: JIT, statements prepared on every pooled connection
    const service0 = cpuSeconds()!;
    const database0 = database ? postgresCpuSeconds(database)! : 0;
    await run(reads);
    const service = (cpuSeconds()! - service0) / reads;
    const db = database ? postgresCpuSeconds(database)! - database0 : 0;
    return { service: service * 1000, database: (db / reads) * 1000 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const results = new Map<string, { service: number; database: number }[]>(trees.map((t) => [t, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const tree of trees) {
    const r = await measure(tree);
    results.get(tree)!.push(r);
    console.log(
      `round ${round + 1} ${tree}: service ${r.service.toFixed(3)} ms, database ${r.database.toFixed(3)} ms, total ${(r.service + r.database).toFixed(3)} ms per read`,
    );
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [tree, rs] of results) {
  console.log(
    `${tree}: median service ${median(rs.map((r) => r.service)).toFixed(3)} ms + database ${median(rs.map((r) => r.database)).toFixed(3)} ms = ${median(rs.map((r) => r.service + r.database)).toFixed(3)} ms per miss (${rs.length} rounds of ${reads})`,
  );
}
agent.destroy();
