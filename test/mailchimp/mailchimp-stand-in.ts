// A local HTTP server standing in for the Mailchimp Marketing API: records every request and
// answers with whatever the test queued (200 with the member by default).
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { WAIT_MS } from '../helpers/wait.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A status with a problem document, or 'drop' to close the connection without answering. */
export type CannedAnswer = { status: number; body?: unknown } | 'drop';

export class MailchimpStandIn {
  readonly requests: RecordedRequest[] = [];
  #answers: CannedAnswer[] = [];
  #waiters: Array<() => void> = [];
  #server: Server;
  url = '';

  constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // kept as text
        }
        this.requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
        for (const waiter of this.#waiters.splice(0)) waiter();
        const answer = this.#answers.shift() ?? { status: 200, body: { id: 'member', status: 'subscribed' } };
        if (answer === 'drop') {
          request.socket.destroy();
          return;
        }
        response.writeHead(answer.status, { 'content-type': 'application/problem+json' });
        response.end(JSON.stringify(answer.body ?? {}));
      });
    });
  }

  async listen(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.url = `http://127.0.0.1:${(this.#server.address() as { port: number }).port}`;
  }

  /** The next requests get these answers, in order; after them, 200 again. */
  answerNext(...answers: CannedAnswer[]): void {
    this.#answers.push(...answers);
  }

  reset(): void {
    this.requests.length = 0;
    this.#answers.length = 0;
  }

  async waitForRequests(count: number, timeoutMs = WAIT_MS): Promise<RecordedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} Mailchimp request(s), got ${this.requests.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.requests;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
