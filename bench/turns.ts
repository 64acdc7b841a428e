// Measuring two contenders (two builds, or two workloads on one service) in turns: each one's
// measured time cut into stretches, the contenders taking turns (ABBA…), so that a change of
// the machine's speed that lasts seconds falls on both nearly alike, where one stretch of each,
// one after the other, met it apart (bench/README.md, "Why pairs").
import type { Measurement } from './load-runner.ts';
import type { BenchOptions } from './options.ts';

/** Stretches each contender's measured time is cut into. */
export const TURNS = 5;

/** The length of one stretch: the measured time cut into TURNS. */
export const stretchSeconds = (options: BenchOptions) => Math.max(1, Math.round(options.durationSeconds / TURNS));

/**
 * Each contender's stretches of `seconds`, measured by `measure` in turns starting with `order`
 * (ABBA…), after one stretch of each in `order` that is not kept: without it the contender
 * measured first cost more, whichever it was (bench/README.md).
 */
export async function inTurns<T>(
  order: number[],
  seconds: number,
  measure: (contender: number, seconds: number) => Promise<T>,
): Promise<T[][]> {
  const measured: T[][] = order.map(() => []);
  for (const i of order) await measure(i, seconds);
  for (let turn = 0; turn < TURNS; turn++) {
    for (const i of turn % 2 === 0 ? order : order.toReversed()) measured[i]!.push(await measure(i, seconds));
  }
  return measured;
}

/** Stretches of one process as one measurement: counts and CPU summed; latencies the highest of any stretch. */
export function summed(runs: Measurement[]): Measurement {
  const sum = (value: (m: Measurement) => number) => runs.reduce((total, m) => total + value(m), 0);
  const highest = (value: (m: Measurement) => number) => Math.max(...runs.map(value));
  const responses = sum((m) => m.ok + m.other);
  const perResponse = (value: (m: Measurement) => number | undefined) =>
    runs.every((m) => value(m) !== undefined) && responses > 0 ? sum((m) => value(m)! * (m.ok + m.other)) / responses : undefined;
  const statusCodes: Record<string, number> = {};
  for (const m of runs) for (const [code, n] of Object.entries(m.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const seconds = sum((m) => m.seconds);
  return {
    ok: sum((m) => m.ok),
    other: sum((m) => m.other),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    statusCodes,
    seconds,
    requestsPerSecond: seconds > 0 ? sum((m) => m.ok) / seconds : 0,
    p50: highest((m) => m.p50),
    p90: highest((m) => m.p90),
    p99: highest((m) => m.p99),
    max: highest((m) => m.max),
    loadCpuShare: highest((m) => m.loadCpuShare),
    cpuMsPerRequest: perResponse((m) => m.cpuMsPerRequest),
    databaseCpuMsPerRequest: perResponse((m) => m.databaseCpuMsPerRequest),
  };
}
