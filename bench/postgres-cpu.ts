// PostgreSQL's CPU time spent for one database: its backends (one process per connection,
// "postgres: <cluster>: <user> <database> <client> <state>" in /proc/<pid>/cmdline) and the
// server's shared writers (WAL writer, checkpointer, background writer), which work for every
// database: on a server with nothing else to do they work for the bench. Read from /proc, so
// only for a server on this machine; elsewhere undefined (the report shows "n/a").
import { readdirSync, readFileSync } from 'node:fs';
import { cpuSeconds } from './proc-stats.ts';

const SHARED = [/: walwriter\s*$/, /: checkpointer\s*$/, /: background writer\s*$/];

/** Total CPU seconds now of the processes working for `database`; differences of two readings give the CPU between them. */
export function postgresCpuSeconds(database: string): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let total = 0;
  let seen = false;
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
    const cpu = cpuSeconds(Number(pid));
    if (cpu === undefined) continue;
    total += cpu;
    seen = true;
  }
  return seen ? total : undefined;
}
