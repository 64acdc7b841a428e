// Removing stored files once the rows that pointed at them are gone (after the commit: a
// rolled-back delete must not lose the file). For the gallery's DELETE and for deleting an
// app user, whose media rows go by cascade: read their storage keys inside the transaction
// (app-user-queries' mediaStorageKeys), commit, then call removeMediaFiles.
import type { AppContext } from '../context.ts';

/**
 * Removes the files; never throws. A file that cannot be removed is logged and left as an
 * orphan: no row points at it, so nothing serves it, and the request has already succeeded.
 */
export async function removeMediaFiles(ctx: AppContext, storageKeys: readonly string[]): Promise<void> {
  for (const storageKey of storageKeys) {
    try {
      await ctx.media.remove(storageKey);
    } catch (error) {
      ctx.log.error({ err: error, storageKey }, 'could not remove a stored media file');
    }
  }
}
