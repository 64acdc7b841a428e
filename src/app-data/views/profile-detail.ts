// Reads the profile tree (profile → topics → items → image/list content → entries and media)
// with a fixed number of queries whatever its size, filtered by the root's id and the owner's
// account id, assembled in memory: the detail in one statement (profile-tree-query.ts), the
// topic views one query per level. Returns plain response objects, so a
// rendering can be cached (keyed on the app user's data_version). The views of an app user
// holding more than tree-views.ts's inline bounds are written in pages instead (a stream).
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Access } from '../kernel/access.ts';
import type { Database } from '../../db/schema.ts';
import { loadItemsByTopic } from './item-loads.ts';
import { toItem, type Item } from '../item-schemas.ts';
import { writeTopics } from './paged-tree.ts';
import { toProfileDetail, type ProfileDetail } from '../profile-schemas.ts';
import { selectTopics, type TopicScope } from '../topic-queries.ts';
import { profileTree, readProfileTree, type TreeItemRow } from './profile-tree-query.ts';
import { toTopic, type Topic } from '../topic-schemas.ts';
import { findProfileWithHeld } from './tree-queries.ts';
import { fitsInline, spoolView } from './tree-views.ts';

/** 1 query: the profile with its topics, their items (with contents and media) and the list entries. */
export async function loadProfileDetail(ctx: AppContext, access: Access, profileId: number): Promise<ProfileDetail | Readable | undefined> {
  const { accountId } = access;
  const row = await readProfileTree(ctx.db, accountId, profileId);
  if (!row) return undefined;
  const { profile, topics, items } = profileTree(row);
  if (!fitsInline(profile)) return spooledProfileDetail(ctx, access, profileId);
  const byTopic = itemsByTopic(ctx, access, items);
  return toProfileDetail(
    ctx,
    profile,
    topics.map((topic) => toTopic(ctx, topic, byTopic.get(topic.id) ?? [])),
  );
}

/** The tree's items in the read shape, by topic id (URLs signed for `access`). */
function itemsByTopic(ctx: AppContext, access: Access, items: readonly TreeItemRow[]): Map<number, Item[]> {
  const byTopic = new Map<number, Item[]>();
  for (const row of items) {
    const item = toItem(ctx, access, row, row.entries);
    const list = byTopic.get(row.topic_id);
    if (list) list.push(item);
    else byTopic.set(row.topic_id, [item]);
  }
  return byTopic;
}

/** The detail of a profile whose app user holds more than fits inline, written in pages. */
export function spooledProfileDetail(ctx: AppContext, access: Access, profileId: number): Promise<Readable | undefined> {
  return spoolView(
    ctx,
    (db) => findProfileWithHeld(db, access.accountId, profileId),
    async (db, out, current) => {
      out.json.openObject();
      out.json.members(toProfileDetail(ctx, current, []), 'topics');
      await writeTopics(ctx, access, db, out, profileId, 'topics');
      out.json.close();
    },
  );
}

/** 3 queries: the topics in scope, their items, the list entries. */
export async function loadTopics(ctx: AppContext, access: Access, db: Kysely<Database>, scope: TopicScope): Promise<Topic[]> {
  const rows = await selectTopics(db, access.accountId, scope);
  const items = await loadItemsByTopic(ctx, access, db, scope);
  return rows.map((row) => toTopic(ctx, row, items.get(row.id) ?? []));
}
