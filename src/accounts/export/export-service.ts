// GET /account/export/ (docs/accounts.md): a free slot on this instance, the limit per account, the
// snapshot of the data written to a spool file, then the archive, streamed (export-archive.ts).
// docs/export-format.md describes what the archive holds.
import type { Readable } from 'node:stream';
import type { Caller } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import { streamExportArchive } from './export-archive.ts';
import { recordActivity } from '../../activity/activity-events.ts';
import { readExportSnapshot } from './export-document.ts';
import type { ExportLimit } from './export-limit.ts';
import type { ExportSlots } from './export-slots.ts';

export interface AccountExport {
  fileName: string;
  /** The ZIP archive as it is written; undefined when only the headers were asked for (HEAD). */
  archive: Readable | undefined;
}

function fileName(now: number): string {
  return `profile-service-export-${new Date(now).toISOString().slice(0, 10)}.zip`;
}

/** An export is in its app user's activity log (docs/activity.md): the export itself holds it. */
async function recordExport(ctx: AppContext, caller: Caller): Promise<void> {
  const { accountId } = caller;
  const appUser = await ctx.db.kysely.selectFrom('app_users').select('id').where('account_id', '=', accountId).executeTakeFirst();
  if (!appUser) return;
  await recordActivity(ctx.db.kysely, {
    accountId,
    appUserId: appUser.id,
    at: ctx.clock.now(),
    actor: { kind: 'owner', id: accountId },
    action: 'exported',
    via: caller.via,
  });
}

/** `headersOnly` (HEAD): says whether an export would be allowed, without counting or reading anything. */
export async function exportAccount(
  ctx: AppContext,
  limit: ExportLimit,
  slots: ExportSlots,
  caller: Caller,
  headersOnly = false,
): Promise<AccountExport> {
  if (headersOnly) {
    await limit.check(caller.accountId);
    return { fileName: fileName(ctx.clock.now()), archive: undefined };
  }
  // An account that has used up its exports hears so (429) whether or not a slot is free.
  await limit.check(caller.accountId);
  const release = slots.take();
  try {
    await limit.take(caller.accountId);
    await recordExport(ctx, caller);
    const snapshot = await readExportSnapshot(ctx, caller);
    return {
      fileName: fileName(Date.parse(snapshot.exportedAt)),
      archive: streamExportArchive(ctx.media, snapshot, ctx.log, release),
    };
  } catch (error) {
    release();
    throw error;
  }
}
