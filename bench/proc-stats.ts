// What the kernel says about a process (Linux /proc): CPU time used so far and peak resident
// memory. Elsewhere both read as undefined and the report shows "n/a".
//
// CPU time is read from each thread's run time in nanoseconds (schedstat) where Linux gives it:
// /proc/<pid>/stat counts in clock ticks (10 ms here), so a phase of 15 ms of CPU reads 0, 10 or
// 20 ms there, right only on average over many phases; W1w's read phases are that short.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * User + system CPU seconds of every thread of the process (utime and stime, fields 14 and
 * 15 of /proc/<pid>/stat, in clock ticks). Counted after the ")" that ends the command
 * name, since the name itself may hold spaces.
 */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state), so utime (14) and stime (15) are at 11 and 12.
    return (Number(fields[11]) + Number(fields[12])) / clockTicks();
  } catch {
    return undefined;
  }
}

/** Nanoseconds each thread of `pid` has run (the first field of /proc/<pid>/task/<tid>/schedstat), by thread id. */
function threadRunTimes(pid: number): Map<number, number> | undefined {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const times = new Map<number, number>();
  for (const tid of tids) {
    try {
      times.set(Number(tid), Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // exited meanwhile, or no schedstat on this kernel
    }
  }
  return times.size > 0 ? times : undefined;
}

/** CPU seconds `pid`'s threads now alive have run, to the nanosecond; from clock ticks where Linux does not say. */
export function runSeconds(pid: number): number | undefined {
  const times = threadRunTimes(pid);
  if (!times) return cpuSeconds(pid);
  let sum = 0;
  for (const ns of times.values()) sum += ns;
  return sum / 1e9;
}

/**
 * How much the readings `now` (by process or thread id) grew since `before`; one that reads
 * less than before is another's now (its id reused), counted from 0. An id gone since takes
 * nothing: only its time up to `before`, already counted.
 */
export function grownSince(now: ReadonlyMap<number, number>, before: ReadonlyMap<number, number>): number {
  let grown = 0;
  for (const [id, value] of now) {
    const was = before.get(id) ?? 0;
    grown += value >= was ? value - was : value;
  }
  return grown;
}

/**
 * A counter of `pid`'s CPU seconds from its first reading (0): differences of two readings
 * give the CPU between them, to the nanosecond. Counted per thread, so a thread that exits
 * takes only its time since the last reading with it, where a sum over the threads alive at
 * each reading would go down by all it had used. Where Linux gives no thread run times, the
 * process's clock ticks.
 */
export function cpuCounter(pid: number): () => number | undefined {
  let total = 0;
  let last: Map<number, number> | undefined;
  let ticksAtStart: number | undefined;
  return () => {
    const times = threadRunTimes(pid);
    if (!times) {
      const ticks = cpuSeconds(pid);
      if (ticks === undefined) return undefined;
      ticksAtStart ??= ticks;
      return ticks - ticksAtStart;
    }
    if (last) total += grownSince(times, last) / 1e9;
    last = times;
    return total;
  };
}

/** Peak resident set size in bytes since the process started (VmHWM of /proc/<pid>/status). */
export function peakRssBytes(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
