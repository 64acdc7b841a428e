// Topics (docs/app-data.md): read with their items in full, written through the owned-write kernel.
import type { Readable } from 'node:stream';
import type { AppContext } from '../context.ts';
import type { Access } from './kernel/access.ts';
import { notFound } from '../errors.ts';
import { writeOwned } from './kernel/owned-write.ts';
import type { WriteTerms } from './kernel/write-terms.ts';
import { loadTopics } from './views/profile-detail.ts';
import { writeTopic, writeTopics } from './views/paged-tree.ts';
import { findProfile } from './profile-queries.ts';
import { enforceQuota } from './kernel/quotas.ts';
import { countTopics, deleteTopic, findTopic, insertTopic, updateTopic } from './topic-queries.ts';
import { toTopic, type Topic } from './topic-schemas.ts';
import { findProfileWithHeld, findTopicWithHeld } from './views/tree-queries.ts';
import { fitsInline, spoolView } from './views/tree-views.ts';

/** A stream when the app user holds more than the inline bounds (tree-views.ts). */
export async function listTopics(ctx: AppContext, access: Access, profileId: number): Promise<Topic[] | Readable> {
  const { accountId } = access;
  const profile = await findProfileWithHeld(ctx.db.kysely, accountId, profileId);
  if (!profile) throw notFound();
  if (!fitsInline(profile)) {
    const view = await spoolView(
      ctx,
      (db) => findProfileWithHeld(db, accountId, profileId),
      (db, out) => writeTopics(ctx, access, db, out, profileId),
    );
    if (!view) throw notFound();
    return view;
  }
  return loadTopics(ctx, access, ctx.db.kysely, { profileId });
}

/** A stream when the app user holds more than the inline bounds (tree-views.ts). */
export async function getTopic(ctx: AppContext, access: Access, id: number): Promise<Topic | Readable> {
  const { accountId } = access;
  const found = await findTopicWithHeld(ctx.db.kysely, accountId, id);
  if (!found) throw notFound();
  if (!fitsInline(found)) {
    const view = await spoolView(
      ctx,
      (db) => findTopicWithHeld(db, accountId, id),
      (db, out, topic) => writeTopic(ctx, access, db, out, topic),
    );
    if (!view) throw notFound();
    return view;
  }
  const [topic] = await loadTopics(ctx, access, ctx.db.kysely, { topicId: id });
  if (!topic) throw notFound();
  return topic;
}

export async function createTopic(
  ctx: AppContext,
  access: Access,
  profileId: number,
  input: { name: string; topic_type: number },
  terms: WriteTerms,
): Promise<Topic> {
  const { accountId } = access;
  const row = await writeOwned(
    ctx,
    terms,
    (trx) => findProfile(trx, accountId, profileId),
    async (trx) => {
      enforceQuota(await countTopics(trx, accountId, profileId), 1, ctx.config.quotas.topicsPerProfile, 'quotas.topicsPerProfile');
      return insertTopic(trx, { accountId, profileId, name: input.name, topicType: input.topic_type });
    },
  );
  return toTopic(ctx, row, []);
}

export async function changeTopic(
  ctx: AppContext,
  access: Access,
  id: number,
  changes: { name?: string; topic_type?: number },
  terms: WriteTerms,
): Promise<Topic | Readable> {
  const { accountId } = access;
  await writeOwned(
    ctx,
    terms,
    (trx) => findTopic(trx, accountId, id),
    async (trx) => {
      const values = {
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.topic_type !== undefined && { topic_type: changes.topic_type }),
      };
      if (Object.keys(values).length > 0) await updateTopic(trx, accountId, id, values);
    },
  );
  return getTopic(ctx, access, id);
}

export async function removeTopic(ctx: AppContext, access: Access, id: number, terms: WriteTerms): Promise<void> {
  const { accountId } = access;
  await writeOwned(
    ctx,
    terms,
    (trx) => findTopic(trx, accountId, id),
    (trx) => deleteTopic(trx, accountId, id),
  );
}
