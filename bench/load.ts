// The load generator, run as its own (pinned) process: `node bench/load.ts <spec.json>`.
// Drives autocannon with the spec's connections and request list, records the latency of
// every 2xx response itself (autocannon's histogram has whole-millisecond resolution), and
// prints one JSON line when the load starts and one with the result when it is done.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './load-types.ts';

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function emit(line: object): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;

let latencies = new Float64Array(1 << 16);
let ok = 0;
let other = 0;
const statusCodes: Record<string, number> = {};
let startedAt = 0;
let lastResponseAt = 0;
const cpuAtStart = process.cpuUsage();

const instance = autocannon(
  {
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSeconds,
    timeout: 10,
    requests: spec.requests,
  },
  (error, result) => {
    if (error) {
      emit({ event: 'error', message: error.message });
      process.exit(1);
    }
    const sorted = latencies.subarray(0, ok).sort();
    const seconds = (lastResponseAt - startedAt) / 1000;
    const cpu = process.cpuUsage(cpuAtStart);
    const outcome: LoadResult = {
      ok,
      other,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes,
      seconds,
      requestsPerSecond: seconds > 0 ? ok / seconds : 0,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.length > 0 ? sorted[sorted.length - 1]! : NaN,
      loadCpuShare: seconds > 0 ? (cpu.user + cpu.system) / 1e6 / seconds : 0,
    };
    emit({ event: 'done', result: outcome });
  },
);

instance.on('start', () => {
  startedAt = performance.now();
  emit({ event: 'start' });
});

instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
  lastResponseAt = performance.now();
  statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
  if (statusCode < 200 || statusCode >= 300) {
    other++;
    return;
  }
  if (ok === latencies.length) {
    const grown = new Float64Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
  }
  latencies[ok++] = responseTime;
});
