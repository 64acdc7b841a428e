// What the bench hands the load generator (bench/load.ts) and what it gets back.
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export type Generator = 'wrk' | 'autocannon';

export interface LoadSpec {
  generator: Generator;
  url: string;
  connections: number;
  durationSeconds: number;
  /** Each connection sends these in turn, round and round. */
  requests: LoadRequest[];
}

export interface LoadResult {
  /** 2xx responses, and all others. */
  ok: number;
  other: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** From the load's start to its last response. */
  seconds: number;
  /** 2xx responses per second. */
  requestsPerSecond: number;
  /** Latencies of 2xx responses, in milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** CPU seconds the load generator used per second: near 1 means it, not the server, may be the limit. */
  loadCpuShare: number;
}
