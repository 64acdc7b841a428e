// Removing stored files at once, best effort: for an upload whose transaction failed after its
// file was put in place. Deletes (of a media resource, an app user, an account) queue the
// removal in their own transaction instead (media-removal.ts), so that a crash right after the
// commit still removes the files.
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
