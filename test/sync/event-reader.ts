// A live stream as a client reads it: fetch with the Authorization header (EventSource cannot
// send one), events parsed as the Server-Sent Events format says.
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.ts';

export interface StreamEvent {
  id: string | undefined;
  data: any;
}

export interface OpenStream {
  status: number;
  contentType: string | null;
  /** The next event, or undefined when the stream ended first. */
  next(): Promise<StreamEvent | undefined>;
  /** Resolves when the stream has ended (by the server). */
  ended: Promise<void>;
  comments: string[];
  close(): void;
}

export async function openStream(
  server: Pick<TestServer, 'url'>,
  path: string,
  token: string | undefined,
  lastEventId?: string,
  extraHeaders: Record<string, string> = {},
): Promise<OpenStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { ...extraHeaders };
  if (token) headers.authorization = `Token ${token}`;
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const response = await fetch(`${server.url}${path}`, { headers, signal: controller.signal });
  const queue: StreamEvent[] = [];
  const waiting: ((event: StreamEvent | undefined) => void)[] = [];
  const comments: string[] = [];
  let done = false;
  let endedResolve!: () => void;
  const ended = new Promise<void>((resolve) => {
    endedResolve = resolve;
  });
  const deliver = (event: StreamEvent) => {
    const waiter = waiting.shift();
    if (waiter) waiter(event);
    else queue.push(event);
  };
  const finish = () => {
    done = true;
    for (const waiter of waiting.splice(0)) waiter(undefined);
    endedResolve();
  };
  if (response.status !== 200 || !response.body) {
    await response.text();
    finish();
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      next: async () => undefined,
      ended,
      comments,
      close: () => {},
    };
  }
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    let id: string | undefined;
    let data: string[] = [];
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          if (line === '') {
            if (data.length > 0) deliver({ id, data: JSON.parse(data.join('\n')) });
            data = [];
            id = undefined;
          } else if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
      }
    } catch {
      // Aborted by the test.
    }
    finish();
  })();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    next: () =>
      queue.length > 0
        ? Promise.resolve(queue.shift())
        : done
          ? Promise.resolve(undefined)
          : new Promise((resolve) => waiting.push(resolve)),
    ended,
    comments,
    close: () => controller.abort(),
  };
}

/** The next `count` events; fails if the stream ends first. */
export async function nextEvents(stream: OpenStream, count: number): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for (let i = 0; i < count; i += 1) {
    const event = await stream.next();
    assert.ok(event, `the stream ended after ${events.length} of ${count} events`);
    events.push(event);
  }
  return events;
}
