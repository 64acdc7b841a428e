// Topics (contract §5): read with their items in full, written through the owned-write kernel.
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { writeOwned } from './owned-write.ts';
import { loadTopics } from './profile-detail.ts';
import { findProfile } from './profile-queries.ts';
import { enforceQuota } from './quotas.ts';
import { countTopics, deleteTopic, findTopic, insertTopic, updateTopic } from './topic-queries.ts';
import { toTopic, type Topic } from './topic-schemas.ts';

export async function listTopics(ctx: AppContext, accountId: number, profileId: number): Promise<Topic[]> {
  if (!(await findProfile(ctx.db.kysely, accountId, profileId))) throw notFound();
  return loadTopics(ctx, ctx.db.kysely, accountId, { profileId });
}

export async function getTopic(ctx: AppContext, accountId: number, id: number): Promise<Topic> {
  const [topic] = await loadTopics(ctx, ctx.db.kysely, accountId, { topicId: id });
  if (!topic) throw notFound();
  return topic;
}

export async function createTopic(
  ctx: AppContext,
  accountId: number,
  profileId: number,
  input: { name: string; topic_type: number },
): Promise<Topic> {
  const row = await writeOwned(
    ctx,
    (trx) => findProfile(trx, accountId, profileId),
    async (trx) => {
      enforceQuota(await countTopics(trx, accountId, profileId), 1, ctx.config.quotas.topicsPerProfile, 'topics in a profile');
      return insertTopic(trx, { accountId, profileId, name: input.name, topicType: input.topic_type });
    },
  );
  return toTopic(ctx, row, []);
}

export async function changeTopic(
  ctx: AppContext,
  accountId: number,
  id: number,
  changes: { name?: string; topic_type?: number },
): Promise<Topic> {
  await writeOwned(
    ctx,
    (trx) => findTopic(trx, accountId, id),
    async (trx) => {
      const values = {
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.topic_type !== undefined && { topic_type: changes.topic_type }),
      };
      if (Object.keys(values).length > 0) await updateTopic(trx, accountId, id, values);
    },
  );
  return getTopic(ctx, accountId, id);
}

export async function removeTopic(ctx: AppContext, accountId: number, id: number): Promise<void> {
  await writeOwned(
    ctx,
    (trx) => findTopic(trx, accountId, id),
    (trx) => deleteTopic(trx, accountId, id),
  );
}
