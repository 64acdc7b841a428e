// Request counts and latencies by route pattern, method and status (docs/production.md), counted
// on every request's path at the cost of a few number increments: each route gets its own
// recorder when it is added (no label set is built, hashed or validated per request, unlike
// prom-client's Histogram.observe, which costs about ten times as much), and the counts only
// become Prometheus series when they are scraped.
import type { onResponseHookHandler } from 'fastify';
import { appendRouteHook } from '../http/route-hooks.ts';
import type { App } from '../http/types.ts';

/** The latency buckets' upper bounds in milliseconds, as Fastify measures (exported in seconds). */
const BOUNDS_MS = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000];
const BOUNDS_SECONDS = BOUNDS_MS.map((ms) => ms / 1000);

/** The route label of requests that matched no route (404, and 405 for a known path). */
export const UNMATCHED_ROUTE = 'unmatched';

/** One route pattern, method and status. */
class Series {
  readonly labels: { method: string; route: string; status_code: string };
  /** Requests per bucket (not cumulative); the last one is past the highest bound (+Inf). */
  readonly buckets = new Float64Array(BOUNDS_MS.length + 1);
  count = 0;
  sumMs = 0;

  constructor(method: string, route: string, status: number) {
    this.labels = { method, route, status_code: String(status) };
  }

  observe(ms: number): void {
    let bucket = 0;
    while (bucket < BOUNDS_MS.length && ms > BOUNDS_MS[bucket]!) bucket++;
    this.buckets[bucket]!++;
    this.count++;
    this.sumMs += ms;
  }
}

/** The series of one route pattern and method, by status. */
class RouteRecorder {
  readonly #method: string;
  readonly #route: string;
  readonly #all: Series[];
  readonly #byStatus = new Map<number, Series>();

  constructor(method: string, route: string, all: Series[]) {
    this.#method = method;
    this.#route = route;
    this.#all = all;
  }

  record(status: number, ms: number): void {
    let series = this.#byStatus.get(status);
    if (series === undefined) {
      series = new Series(this.#method, this.#route, status);
      this.#byStatus.set(status, series);
      this.#all.push(series);
    }
    series.observe(ms);
  }
}

/** What prom-client's Registry needs of a metric (registerMetric, metrics()). */
interface CollectedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: CollectedValue[] }>;
}

interface CollectedValue {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

export class RequestMetrics {
  readonly #series: Series[] = [];
  readonly #unmatched = new Map<string, RouteRecorder>();

  recorder(method: string, route: string): RouteRecorder {
    return new RouteRecorder(method, route, this.#series);
  }

  /** Requests that matched no route, by method (Node's HTTP parser knows a fixed set of methods). */
  unmatched(method: string): RouteRecorder {
    let recorder = this.#unmatched.get(method);
    if (recorder === undefined) {
      recorder = this.recorder(method, UNMATCHED_ROUTE);
      this.#unmatched.set(method, recorder);
    }
    return recorder;
  }

  /** http_requests_total and http_request_duration_seconds, for a prom-client Registry. */
  collectors(): CollectedMetric[] {
    const series = this.#series;
    const requests: CollectedMetric = {
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code (the same count as http_request_duration_seconds_count).',
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({ ...describe(requests), values: series.map((s) => ({ labels: s.labels, value: s.count })) }),
    };
    const duration: CollectedMetric = {
      name: 'http_request_duration_seconds',
      help: 'Time from a request to the end of its answer, by method, route pattern and status code.',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => {
        const values: CollectedValue[] = [];
        for (const s of series) {
          let cumulative = 0;
          for (let bucket = 0; bucket <= BOUNDS_MS.length; bucket++) {
            cumulative += s.buckets[bucket]!;
            const le = bucket < BOUNDS_MS.length ? BOUNDS_SECONDS[bucket]! : '+Inf';
            values.push({ metricName: 'http_request_duration_seconds_bucket', labels: { ...s.labels, le }, value: cumulative });
          }
          values.push({ metricName: 'http_request_duration_seconds_sum', labels: s.labels, value: s.sumMs / 1000 });
          values.push({ metricName: 'http_request_duration_seconds_count', labels: s.labels, value: s.count });
        }
        return { ...describe(duration), values };
      },
    };
    return [requests, duration];
  }
}

function describe(metric: CollectedMetric) {
  return { name: metric.name, help: metric.help, type: metric.type, aggregator: metric.aggregator };
}

/**
 * Counts every answer. Each route gets an onResponse hook of its own, made when the route is
 * added (register this before any route), which knows its pattern and method already; one
 * global hook counts the requests that matched no route. Fastify measures the time (from the
 * request's routing to the end of the answer) whether or not anything reads it.
 */
export function registerRequestMetrics(app: App, metrics: RequestMetrics): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const recorders = new Map(methods.map((method) => [method, metrics.recorder(method, route.url)]));
    const only = methods.length === 1 ? recorders.get(methods[0]!)! : undefined;
    const hook: onResponseHookHandler = only
      ? (_request, reply, done) => {
          only.record(reply.statusCode, reply.elapsedTime);
          done();
        }
      : (request, reply, done) => {
          recorders.get(request.method)?.record(reply.statusCode, reply.elapsedTime);
          done();
        };
    appendRouteHook(route, 'onResponse', hook);
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) metrics.unmatched(request.method).record(reply.statusCode, reply.elapsedTime);
    done();
  });
}
