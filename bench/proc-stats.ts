// What the kernel says about a process (Linux /proc): CPU time used so far and peak resident
// memory. Elsewhere both read as undefined and the report shows "n/a".
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

/** Peak resident set size in bytes since the process started (VmHWM of /proc/<pid>/status). */
export function peakRssBytes(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
