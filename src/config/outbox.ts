// The outbox worker, which delivers e-mails and sync calls with retries, and the webhook worker beside it.
import { choice, duration, integer, onOff } from './parsers.ts';
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
  webhookAllowPrivate: {
    name: 'WEBHOOK_ALLOW_PRIVATE',
    default: 'false',
    parser: choice(['true', 'false']),
    doc: 'true: webhooks may go to http:// URLs and private, loopback and link-local addresses (development, tests)',
  },
} satisfies Variables;

export interface OutboxConfig {
  outbox: Omit<Values<typeof OUTBOX>, 'webhookAllowPrivate'> & { webhookAllowPrivate: boolean };
}

export function loadOutbox(settings: Settings): OutboxConfig {
  const { webhookAllowPrivate, ...outbox } = settings.readAll(OUTBOX);
  return { outbox: { ...outbox, webhookAllowPrivate: webhookAllowPrivate === 'true' } };
}
