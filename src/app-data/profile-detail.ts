// Reads the profile tree (profile → topics → items → image/list content → entries and media)
// with a fixed number of queries whatever its size: one per level, filtered by the root's id
// and the owner's account id, assembled in memory. Returns plain response objects, so a
// rendering can be cached (keyed on the app user's data_version). The views of an app user
// holding more than tree-views.ts's inline bounds are written in pages instead (a stream).
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { loadItemsByTopic } from './item-loads.ts';
import { writeTopics } from './paged-tree.ts';
import { toProfileDetail, type ProfileDetail } from './profile-schemas.ts';
import { selectTopics, type TopicScope } from './topic-queries.ts';
import { toTopic, type Topic } from './topic-schemas.ts';
import { findProfileWithHeld } from './tree-queries.ts';
import { fitsInline, spoolView } from './tree-views.ts';

/** 4 queries: the profile, its topics, their items (with contents and media), the list entries. */
export async function loadProfileDetail(
  ctx: AppContext,
  accountId: number,
  profileId: number,
): Promise<ProfileDetail | Readable | undefined> {
  const profile = await findProfileWithHeld(ctx.db.kysely, accountId, profileId);
  if (!profile) return undefined;
  if (!fitsInline(profile)) {
    return spoolView(ctx, async (db, out) => {
      const current = await findProfileWithHeld(db, accountId, profileId);
      if (!current) return false;
      out.json.openObject();
      out.json.members(toProfileDetail(ctx, current, []), 'topics');
      await writeTopics(ctx, db, out, accountId, profileId, 'topics');
      out.json.close();
      return true;
    });
  }
  const topics = await loadTopics(ctx, ctx.db.kysely, accountId, { profileId });
  return toProfileDetail(ctx, profile, topics);
}

/** 3 queries: the topics in scope, their items, the list entries. */
export async function loadTopics(ctx: AppContext, db: Kysely<Database>, accountId: number, scope: TopicScope): Promise<Topic[]> {
  const rows = await selectTopics(db, accountId, scope);
  const items = await loadItemsByTopic(ctx, db, accountId, scope);
  return rows.map((row) => toTopic(ctx, row, items.get(row.id) ?? []));
}
