// Changes made elsewhere (another device, an accessor), shown without a reload (docs/offline-and-live.md):
// one live stream per app user shown, read with fetch (EventSource cannot send the token),
// shared by every component that follows that app user. Each burst of events bumps a counter
// that pages put in their loads' keys, so they read again. A stream that ends is opened again
// with Last-Event-ID; a 410 (access changed, or a cursor too old) starts afresh and reloads.
import { useEffect, useState } from 'preact/hooks';
import { tokenRefused } from './api/client.ts';
import { currentToken } from './session.ts';

const RETRY_MS = 2_000;
/** Events that come together (one write touches several objects) reload once. */
const SETTLE_MS = 150;

interface Follow {
  listeners: Set<() => void>;
  stop(): void;
}

const follows = new Map<number, Follow>();

function follow(appUserId: number): Follow {
  const listeners = new Set<() => void>();
  let stopped = false;
  let controller: AbortController | undefined;
  let lastEventId: string | undefined;
  let settle: ReturnType<typeof setTimeout> | undefined;
  const changed = () => {
    clearTimeout(settle);
    settle = setTimeout(() => {
      for (const listener of listeners) listener();
    }, SETTLE_MS);
  };

  async function run(): Promise<void> {
    while (!stopped) {
      const token = currentToken();
      if (!token) return;
      controller = new AbortController();
      const headers: Record<string, string> = { Authorization: `Token ${token}`, Accept: 'text/event-stream' };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      try {
        const response = await fetch(`/app/users/${appUserId}/events/`, { headers, signal: controller.signal });
        if (response.status === 410) {
          lastEventId = undefined;
          changed();
          continue;
        }
        // Signed out, or no longer shared: nothing more to follow.
        if (response.status === 401) return await tokenRefused(token, response);
        if (response.status === 404) return;
        if (response.ok && response.body) await read(response.body);
      } catch {
        if (stopped) return;
      }
      // Ended (a restart, access that changed, a network drop): again in a moment, from the last event.
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  async function read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let id: string | undefined;
    let hasData = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (hasData) {
            if (id) lastEventId = id;
            changed();
          }
          id = undefined;
          hasData = false;
        } else if (line.startsWith('id:')) id = line.slice(3).trim();
        else if (line.startsWith('data:')) hasData = true;
      }
    }
  }

  void run();
  return {
    listeners,
    stop() {
      stopped = true;
      clearTimeout(settle);
      controller?.abort();
    },
  };
}

/** A number that moves whenever the app user's data changes, here or elsewhere: put it in a load's key. */
export function useLiveVersion(appUserId: number | undefined): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (appUserId === undefined) return;
    let current = follows.get(appUserId);
    if (!current) {
      current = follow(appUserId);
      follows.set(appUserId, current);
    }
    const listener = () => setVersion((n) => n + 1);
    const followed = current;
    followed.listeners.add(listener);
    return () => {
      followed.listeners.delete(listener);
      if (followed.listeners.size === 0) {
        followed.stop();
        follows.delete(appUserId);
      }
    };
  }, [appUserId]);
  return version;
}
