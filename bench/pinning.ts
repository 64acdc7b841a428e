// Where the processes run: the server (and the ceiling server) on one CPU, the load
// generators on another, with `taskset`, when it exists and this process may use two CPUs.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Pinning {
  /** Command prefix for the server side, e.g. ['taskset', '-c', '0'], or [] when not pinned. */
  server: string[];
  load: string[];
  description: string;
}

/** "0-3,6" → [0, 1, 2, 3, 6] */
function parseCpuList(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [from, to] = part.split('-').map(Number);
    if (to === undefined) return [from!];
    return Array.from({ length: to - from! + 1 }, (_, i) => from! + i);
  });
}

function allowedCpus(): number[] {
  try {
    const match = /^Cpus_allowed_list:\s+(\S+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return parseCpuList(match[1]!);
  } catch {
    // not Linux
  }
  return [];
}

export function detectPinning(): Pinning {
  const cpus = allowedCpus();
  const hasTaskset = spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
  if (!hasTaskset || cpus.length < 2) {
    const why = !hasTaskset ? 'taskset not found' : `only ${cpus.length || 'an unknown number of'} CPU(s) available`;
    return { server: [], load: [], description: `not pinned (${why}): server and load generator share the CPUs` };
  }
  const [server, load] = cpus as [number, number];
  return {
    server: ['taskset', '-c', String(server)],
    load: ['taskset', '-c', String(load)],
    description: `server pinned to CPU ${server}, load generator to CPU ${load} (taskset)`,
  };
}
