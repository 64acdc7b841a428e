// `npm run bench -- [options]`: what to run and for how long.
import { parseArgs } from 'node:util';
import type { Generator } from './load-types.ts';

export const WORKLOADS = ['W1', 'W1u', 'W1w', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7', 'W8', 'W9'] as const;
export type WorkloadId = (typeof WORKLOADS)[number];
/** What --compare pairs unless --only says: W7 and W9 need sharing (and W9 activity logs), which older builds lack. */
const COMPARED_BY_DEFAULT: readonly WorkloadId[] = ['W1', 'W1u', 'W2', 'W3', 'W4', 'W6'];
/** What --compare can pair: W5 is W1 and W4 at once, so its CPU per request has no single meaning. */
export const COMPARABLE: readonly WorkloadId[] = [...COMPARED_BY_DEFAULT, 'W1w', 'W7', 'W9'];
/** Fewest pairs --compare measures per workload: fewer give no spread worth the name. */
export const MIN_PAIRS = 3;

export interface BenchOptions {
  /** 'sqlite', or the postgres:// URL of a server the bench may create databases on. */
  db: string;
  quick: boolean;
  only: Set<WorkloadId>;
  warmupSeconds: number;
  durationSeconds: number;
  repeats: number;
  connections: number;
  loginConnections: number;
  accounts: number;
  bigAccounts: number;
  keep: boolean;
  generator: Generator;
  /** --compare: the git ref whose build is measured against the working tree's. */
  compare: string | undefined;
}

export const USAGE = `Usage: npm run bench -- [options]

  --db URL            postgres://… to run on PostgreSQL (the bench creates and drops its own
                      databases there); default: SQLite files in a temporary directory
  --compare REF       build the commit REF in a temporary git worktree and measure it against
                      the working tree's build, in pairs, printing new ÷ old per workload
                      (workloads W1, W1u, W2, W3, W4, W6; W1w, W7 and W9 when --only names
                      them; 5 pairs, --quick 3, --repeats N)
  --quick             1 repeat of 5 s after 2 s of warm-up, W6 at 10,000 accounts (a quick look;
                      with --compare: 3 pairs of 5 s each)
  --only W1,W3        run only these workloads (W1, W1u, W2 … W9; W1u is W1 with the rendering
                      cache off, RENDER_CACHE_BYTES=0; W7 an accessor's read of a shared
                      profile, W8 W1 with If-None-Match answered 304, each in turn with W1;
                      W1w W1 read after a one-entry write to one of the profile's topics;
                      W9 an accessor's item create, in turn with W3)
  --duration S        seconds measured per repeat (default 10; --quick 5)
  --warmup S          seconds of warm-up before the measured repeats (default 3; --quick 2)
  --repeats N         measured repeats, medians reported (default 3; --quick 1); with --compare
                      the pairs (at least 3)
  --connections N     connections of the read/write workloads (default 50; W4 uses 10)
  --accounts N        accounts in the main database (default 1,000)
  --big-accounts N    accounts in W6's large database (default 100,000; --quick 10,000)
  --generator NAME    the load generator: wrk (default; Debian's package) or autocannon (the
                      bench's earlier one, kept to compare)
  --keep              keep the temporary directory and databases (their names are printed)`;

export class UsageError extends Error {}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a positive whole number, got "${value}"`);
  return Number(value);
}

export function parseOptions(argv: string[]): BenchOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        db: { type: 'string' },
        quick: { type: 'boolean', default: false },
        only: { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        repeats: { type: 'string' },
        connections: { type: 'string' },
        accounts: { type: 'string' },
        'big-accounts': { type: 'string' },
        keep: { type: 'boolean', default: false },
        generator: { type: 'string', default: 'wrk' },
        compare: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';

  const db = values.db ?? 'sqlite';
  if (db !== 'sqlite' && !/^postgres(ql)?:\/\//.test(db)) throw new UsageError(`--db must be a postgres:// URL (or "sqlite"), got "${db}"`);

  const compare = values.compare?.trim();
  if (compare === '') throw new UsageError('--compare takes a git ref (a commit, branch or tag)');
  const offered = compare ? COMPARABLE : WORKLOADS;
  const only = new Set<WorkloadId>();
  for (const name of (values.only ?? (compare ? COMPARED_BY_DEFAULT : offered).join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const workload = WORKLOADS.find((w) => w.toLowerCase() === name.toLowerCase());
    if (!workload) throw new UsageError(`--only takes ${WORKLOADS.join(', ')}; got "${name}"`);
    if (!offered.includes(workload))
      throw new UsageError(`--compare takes ${COMPARABLE.join(', ')} (W5 is W1 and W4 at once); got "${name}"`);
    only.add(workload);
  }

  const generator = values.generator;
  if (generator !== 'wrk' && generator !== 'autocannon') throw new UsageError(`--generator takes wrk or autocannon; got "${generator}"`);

  const quick = values.quick;
  const repeats = positive('repeats', values.repeats, compare ? (quick ? MIN_PAIRS : 5) : quick ? 1 : 3);
  if (compare && repeats < MIN_PAIRS) throw new UsageError(`--compare measures at least ${MIN_PAIRS} pairs; got --repeats ${repeats}`);
  return {
    db,
    quick,
    only,
    durationSeconds: positive('duration', values.duration, quick ? 5 : 10),
    warmupSeconds: positive('warmup', values.warmup, quick ? 2 : 3),
    repeats,
    connections: positive('connections', values.connections, 50),
    loginConnections: 10,
    accounts: positive('accounts', values.accounts, 1000),
    bigAccounts: positive('big-accounts', values['big-accounts'], quick ? 10_000 : 100_000),
    keep: values.keep,
    generator,
    compare,
  };
}
