// The outbox worker, which delivers e-mails and sync calls with retries.
import { duration, integer, onOff } from './parsers.ts';
import type { Settings, Values, Variables } from './variable.ts';

export const OUTBOX = {
  /** false: this instance queues messages but leaves their delivery to other instances. */
  workerEnabled: {
    name: 'OUTBOX_WORKER',
    default: 'on',
    parser: onOff,
    doc: "off: this instance queues messages, others' workers deliver",
  },
  pollIntervalMs: { name: 'OUTBOX_POLL_INTERVAL', default: '1000ms', parser: duration, doc: 'how often the worker looks for messages' },
  retryBaseMs: { name: 'OUTBOX_RETRY_BASE', default: '5s', parser: duration, doc: 'the first retry delay, doubled each attempt' },
  maxAttempts: { name: 'OUTBOX_MAX_ATTEMPTS', default: '12', parser: integer(1, 100), doc: 'attempts before a message is marked failed' },
} satisfies Variables;

export interface OutboxConfig {
  outbox: Values<typeof OUTBOX>;
}

export function loadOutbox(settings: Settings): OutboxConfig {
  return { outbox: settings.readAll(OUTBOX) };
}
