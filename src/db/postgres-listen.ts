// LISTEN on PostgreSQL: a connection of its own (a pooled one would be handed to others),
// opened again after it breaks. What was announced while it was down is lost, so `onReconnect`
// runs once it is back: listeners then look for themselves.
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

const RECONNECT_MS = 1_000;

export interface Listening {
  close(): Promise<void>;
}

export function listenTo(
  url: string,
  channels: readonly string[],
  onNotify: (channel: string, payload: string) => void,
  onReconnect: () => void,
  log?: FastifyBaseLogger,
): Listening {
  let client: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let connectedOnce = false;

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    next.on('notification', (message) => onNotify(message.channel, message.payload ?? ''));
    next.on('error', (error) => {
      log?.warn({ err: error }, 'database notifications connection lost');
      retry(next);
    });
    next.on('end', () => retry(next));
    try {
      await next.connect();
      for (const channel of channels) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      log?.warn({ err: error }, 'database notifications: cannot listen; trying again');
      retry(next);
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    if (connectedOnce) onReconnect();
    connectedOnce = true;
  };

  const retry = (failed: pg.Client) => {
    if (closed || timer || (client && client !== failed)) return;
    client = undefined;
    failed.removeAllListeners('end');
    void failed.end().catch(() => {});
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, RECONNECT_MS);
    timer.unref();
  };

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => {});
    },
  };
}
