// Removing stored files at once, best effort: for an upload whose transaction failed after its
// file was put in place. Deletes (of a media resource, an app user, an account) queue the
// removal in their own transaction instead (media-removal.ts), so that a crash right after the
// commit still removes the files.
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';

/**
 * Removes the files; never throws. A file that cannot be removed is logged and left as an
 * orphan: no row points at it, so nothing serves it, and the request has already succeeded.
 * `log`: the request's logger, so that the line carries its request id.
 */
export async function removeMediaFiles(ctx: AppContext, storageKeys: readonly string[], log: FastifyBaseLogger = ctx.log): Promise<void> {
  for (const storageKey of storageKeys) {
    try {
      await ctx.media.remove(storageKey);
    } catch (error) {
      log.error({ err: error, storageKey }, 'could not remove a stored media file');
    }
  }
}
