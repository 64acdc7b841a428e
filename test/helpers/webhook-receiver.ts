// A webhook receiver for tests: a real HTTP server on 127.0.0.1 that keeps every request and
// verifies its signature with the `standardwebhooks` package, as a receiver would. It answers
// 204, or the statuses the test queues.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signatures: string[];
  body: string;
  payload: any;
  /** Whether `standardwebhooks` accepted it with each secret the receiver knows, by secret. */
  verifiedWith: Map<string, boolean>;
  headers: http.IncomingHttpHeaders;
  /** The status it was answered with. */
  status: number;
}

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Statuses to answer with, in turn; then 204. */
  readonly statuses: number[] = [];
  secrets: string[] = [];
  #server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verifiedWith = new Map<string, boolean>();
      for (const secret of this.secrets) {
        try {
          new Webhook(secret).verify(body, request.headers as Record<string, string>);
          verifiedWith.set(secret, true);
        } catch {
          verifiedWith.set(secret, false);
        }
      }
      const status = this.statuses.shift() ?? 204;
      let payload: unknown;
      try {
        payload = JSON.parse(body);
      } catch {
        payload = undefined;
      }
      this.received.push({
        id: String(request.headers['webhook-id']),
        timestamp: String(request.headers['webhook-timestamp']),
        signatures: String(request.headers['webhook-signature'] ?? '').split(' '),
        body,
        payload,
        verifiedWith,
        headers: request.headers,
        status,
      });
      response.writeHead(status).end();
    });
  });

  async listen(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hooks`;
  }

  /** What it received about one account (by `data.account.id`), in order. */
  about(accountId: number): ReceivedWebhook[] {
    return this.received.filter((r) => r.payload?.data?.account?.id === accountId);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }
}
