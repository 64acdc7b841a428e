// GET /metrics on a listener of its own (METRICS_PORT, METRICS_HOST): the API's port never
// serves it, so exposing the API does not expose the metrics. Plain node:http: one route, no
// conventions of the API (its authentication, its hooks) to keep out of the way.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceMetrics } from './metrics.ts';

export interface MetricsServer {
  /** Where it listens, e.g. http://127.0.0.1:9464 (the metrics are at /metrics). */
  address: string;
  close(): Promise<void>;
}

export async function serveMetrics(
  metrics: ServiceMetrics,
  listen: { port: number; host: string },
  log: FastifyBaseLogger,
): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' && path !== '/metrics/') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics.\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed.\n');
      return;
    }
    metrics.text().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        log.error({ err: error }, 'metrics: scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be read.\n');
      },
    );
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    address: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper keeps its connection open between scrapes; it is not waited for.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
