/**
 * How long a test waits for something the service does in the background (an e-mail, an
 * outbox row's state, a commit) before it fails. Far above what it takes even on a busy
 * machine: every wait returns as soon as the thing has happened.
 */
export const WAIT_MS = 30_000;

/** Waits until `condition` holds (polled), or fails after WAIT_MS with `what`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
