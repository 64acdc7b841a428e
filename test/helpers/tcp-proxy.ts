// A TCP proxy between the service and a server (PostgreSQL, SMTP) that injects network
// faults: reset every open connection, refuse new ones, stall (accept, forward nothing either
// way, on new and open connections alike), and restore.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

interface Link {
  client: Socket;
  upstream: Socket;
}

export interface InjectedFaults {
  /** Open connections destroyed with a TCP RST. */
  resets: number;
  /** New connections reset as soon as they were accepted. */
  refusals: number;
  /** Times forwarding was stopped. */
  stalls: number;
}

export class TcpProxy {
  readonly injected: InjectedFaults = { resets: 0, refusals: 0, stalls: 0 };
  port = 0;
  #server: Server;
  #links = new Set<Link>();
  #mode: 'forward' | 'refuse' | 'stall' = 'forward';
  #upstream: { host: string; port: number };

  constructor(upstreamHost: string, upstreamPort: number) {
    this.#upstream = { host: upstreamHost, port: upstreamPort };
    this.#server = createServer({ noDelay: true }, (client) => this.#accept(client));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.#server.address() as { port: number }).port;
  }

  /** Connections open through the proxy now. */
  get connections(): number {
    return this.#links.size;
  }

  /** Destroys every open connection with RST, both sides (the service and the server see a reset). */
  reset(): void {
    for (const link of this.#links) {
      link.client.resetAndDestroy();
      link.upstream.resetAndDestroy();
      this.injected.resets++;
    }
    this.#links.clear();
  }

  /** New connections are reset at once (open ones are left alone: reset() them too for an outage). */
  refuse(): void {
    this.#mode = 'refuse';
  }

  /** Nothing is forwarded any more, on open connections or new ones; nothing is closed either. */
  stall(): void {
    if (this.#mode !== 'stall') this.injected.stalls++;
    this.#mode = 'stall';
    for (const link of this.#links) this.#pause(link);
  }

  /** Forwards again, open (stalled) connections included: what they held back flows on. */
  restore(): void {
    this.#mode = 'forward';
    for (const link of this.#links) this.#resume(link);
  }

  async close(): Promise<void> {
    this.reset();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket): void {
    client.on('error', () => {});
    if (this.#mode === 'refuse') {
      this.injected.refusals++;
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection({ ...this.#upstream, noDelay: true });
    upstream.on('error', () => {});
    const link: Link = { client, upstream };
    this.#links.add(link);
    this.#forward(client, upstream);
    this.#forward(upstream, client);
    const close = () => {
      if (!this.#links.delete(link)) return;
      client.destroy();
      upstream.destroy();
    };
    client.once('close', close);
    upstream.once('close', close);
    if (this.#mode === 'stall') this.#pause(link);
  }

  /** Like pipe(), but a stalled link stays paused even when the other side drains. */
  #forward(from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => {
      if (this.#mode !== 'stall') from.resume();
    });
    from.on('end', () => to.end());
  }

  #pause(link: Link): void {
    link.client.pause();
    link.upstream.pause();
  }

  #resume(link: Link): void {
    link.client.resume();
    link.upstream.resume();
  }
}
