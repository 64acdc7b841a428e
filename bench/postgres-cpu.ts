// PostgreSQL's CPU time spent for one database: its backends (one process per connection,
// "postgres: <cluster>: <user> <database> <client> <state>" in /proc/<pid>/cmdline) and the
// server's shared writers (WAL writer, checkpointer, background writer), which work for every
// database: on a server with nothing else to do they work for the bench. Read from /proc, so
// only for a server on this machine; elsewhere undefined (the report shows "n/a").
import { readdirSync, readFileSync } from 'node:fs';
import { grownSince, runSeconds } from './proc-stats.ts';

const SHARED = [/: walwriter\s*$/, /: checkpointer\s*$/, /: background writer\s*$/];

/** Each database's CPU seconds counted so far, and each of its processes' CPU at the last reading. */
const counted = new Map<string, { total: number; last: Map<number, number> }>();

/**
 * CPU seconds of the processes working for `database`, counted from its first reading;
 * differences of two readings give the CPU between them. Counted per process, so a backend that
 * exits (a pool closing an idle connection) takes only its CPU since the last reading with it,
 * where a sum over the processes alive at each reading went down by all it had used.
 */
export function postgresCpuSeconds(database: string): number | undefined {
  const now = processCpu(database);
  if (now === undefined) return undefined;
  let state = counted.get(database);
  if (!state) {
    state = { total: 0, last: now };
    counted.set(database, state);
    return 0;
  }
  state.total += grownSince(now, state.last);
  state.last = now;
  return state.total;
}

/** The CPU seconds of each process working for `database` now. */
function processCpu(database: string): Map<number, number> | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const found = new Map<number, number>();
  for (const pid of pids) {
    let command: string;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue; // gone meanwhile
    }
    if (!command.startsWith('postgres: ')) continue;
    const words = command.split(/\s+/);
    const ours = words.includes(database) || SHARED.some((pattern) => pattern.test(command));
    if (!ours) continue;
    const cpu = runSeconds(Number(pid));
    if (cpu === undefined) continue;
    found.set(Number(pid), cpu);
  }
  return found.size > 0 ? found : undefined;
}
