// The owner's emergency links in the data export (docs/export-format.md): each as the API
// answers it, with the views the API would list for it (`view_log`). Never a token: the
// service has none to give.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { listEmergencyLinks, listLinkViews } from './emergency-link-queries.ts';
import { toEmergencyLink, toLinkView, type EmergencyLink, type LinkView } from './emergency-link-schemas.ts';
import { VIEW_RETENTION_MS, VIEWS_LISTED } from './emergency-link-service.ts';

export type ExportedEmergencyLink = EmergencyLink & { view_log: LinkView[] };

/** One query for the links, one per link for its views (at most QUOTA_EMERGENCY_LINKS_PER_USER). */
export async function exportedEmergencyLinks(
  ctx: AppContext,
  db: Kysely<Database>,
  accountId: number,
  appUserId: number,
): Promise<ExportedEmergencyLink[]> {
  const since = ctx.clock.now() - VIEW_RETENTION_MS;
  const exported: ExportedEmergencyLink[] = [];
  for (const row of await listEmergencyLinks(db, accountId, appUserId)) {
    const views = await listLinkViews(db, accountId, row.id, since, VIEWS_LISTED);
    exported.push({ ...toEmergencyLink(ctx, row), view_log: views.map(toLinkView) });
  }
  return exported;
}
