// From repeated measurements to the figures in the table: medians of the repeats.
import type { Measurement } from './load-runner.ts';

export interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number | undefined;
  /** PostgreSQL's CPU per request (W-runs on PostgreSQL only). */
  databaseCpuMsPerRequest: number | undefined;
  peakRssMb: number | undefined;
  /** Non-2xx responses and connection errors (timeouts included) over all repeats. */
  failures: number;
  /** Highest CPU share the load generator used: near 1, the generator may be what limits. */
  loadCpuShare: number;
  repeats: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function figuresOf(runs: Measurement[], peakRssBytes: number | undefined): Figures {
  const cpu = runs.map((r) => r.cpuMsPerRequest).filter((v): v is number => v !== undefined);
  const databaseCpu = runs.map((r) => r.databaseCpuMsPerRequest).filter((v): v is number => v !== undefined);
  return {
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuMsPerRequest: cpu.length > 0 ? median(cpu) : undefined,
    databaseCpuMsPerRequest: databaseCpu.length > 0 ? median(databaseCpu) : undefined,
    peakRssMb: peakRssBytes === undefined ? undefined : peakRssBytes / (1024 * 1024),
    failures: runs.reduce((sum, r) => sum + r.other + r.errors, 0),
    loadCpuShare: Math.max(...runs.map((r) => r.loadCpuShare)),
    repeats: runs.length,
  };
}
