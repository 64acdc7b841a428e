// Durable removal of stored files: the storage keys are an outbox message written in the same
// transaction as the rows that pointed at them, so a crash right after the commit still
// removes the files (the worker delivers the message after the restart). Removing a file that
// is already gone is no error, so a message delivered twice does no harm.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import type { DeliveryHandler } from '../outbox/worker.ts';
import type { MediaStorage } from '../storage/media-storage.ts';

interface MediaRemoval {
  storageKeys: string[];
}

/** Queue inside the transaction that deletes the rows; call ctx.outbox.wake() after it commits. */
export async function queueMediaRemoval(ctx: AppContext, trx: Kysely<Database>, storageKeys: string[]): Promise<void> {
  if (storageKeys.length === 0) return;
  await ctx.outbox.enqueue(trx, 'media-removal', { storageKeys } satisfies MediaRemoval, ctx.clock.now());
}

export function mediaRemovalDelivery(storage: MediaStorage): DeliveryHandler {
  return {
    async deliver(job: MediaRemoval) {
      for (const key of job.storageKeys) await storage.remove(key);
    },
    redact: (job: MediaRemoval) => ({ removed: job.storageKeys.length }),
  };
}
