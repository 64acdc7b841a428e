// GET /account/export/ (contract §9): the limit, the snapshot of the data, then the archive,
// streamed (export-archive.ts). docs/export-format.md describes what the archive holds.
import type { Readable } from 'node:stream';
import type { Caller } from '../auth/token-auth.ts';
import type { AppContext } from '../context.ts';
import { streamExportArchive } from './export-archive.ts';
import { readExportSnapshot } from './export-document.ts';
import type { ExportLimit } from './export-limit.ts';

export interface AccountExport {
  fileName: string;
  /** The ZIP archive as it is written; undefined when only the headers were asked for (HEAD). */
  archive: Readable | undefined;
}

function fileName(now: number): string {
  return `profile-service-export-${new Date(now).toISOString().slice(0, 10)}.zip`;
}

/** `headersOnly` (HEAD): says whether an export would be allowed, without counting or reading anything. */
export async function exportAccount(ctx: AppContext, limit: ExportLimit, caller: Caller, headersOnly = false): Promise<AccountExport> {
  if (headersOnly) {
    await limit.check(caller.accountId);
    return { fileName: fileName(ctx.clock.now()), archive: undefined };
  }
  await limit.take(caller.accountId);
  const snapshot = await readExportSnapshot(ctx, caller.accountId, caller.tokenId);
  return {
    fileName: fileName(Date.parse(snapshot.document.exported_at)),
    archive: streamExportArchive(ctx.media, snapshot, ctx.log),
  };
}
