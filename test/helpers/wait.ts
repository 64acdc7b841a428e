/**
 * How long a test waits for something the service does in the background (an e-mail, an
 * outbox row's state, a commit) before it fails. Far above what it takes even on a busy
 * machine: every wait returns as soon as the thing has happened.
 */
export const WAIT_MS = 30_000;
