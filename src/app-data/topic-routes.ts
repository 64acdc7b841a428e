// /app/topic-types/, /app/profiles/{id}/topics/ and /app/topics/{id}/ (contract §5).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { notFound } from '../http/errors.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { IdParams } from './field-schemas.ts';
import { loadTopics } from './profile-detail.ts';
import { findProfile } from './profile-queries.ts';
import { enforceQuota } from './quotas.ts';
import { countTopics, deleteTopic, findTopic, insertTopic, updateTopic } from './topic-queries.ts';
import { TopicBody, TopicPatchBody, TopicSchema, toTopic, type Topic } from './topic-schemas.ts';
import { TOPIC_TYPES, TopicTypeSchema } from './topic-types.ts';
import { startChange, writeAppData } from './write-transaction.ts';

const tags = ['topics'];

export function registerTopicRoutes(app: App, ctx: AppContext): void {
  async function loadTopic(accountId: number, id: number): Promise<Topic> {
    const [topic] = await loadTopics(ctx, ctx.db.kysely, accountId, { topicId: id });
    if (!topic) throw notFound();
    return topic;
  }

  app.get('/app/topic-types/', {
    schema: { tags, summary: 'The topic types and their labels', response: { 200: Type.Array(TopicTypeSchema) } },
  }, async () => TOPIC_TYPES);

  app.get('/app/profiles/:id/topics/', {
    schema: { tags, summary: "A profile's topics, items in full", params: IdParams, response: { 200: Type.Array(TopicSchema) } },
  }, async (request) => {
    const accountId = callerOf(request).accountId;
    const profileId = parseId(request.params.id);
    if (!await findProfile(ctx.db.kysely, accountId, profileId)) throw notFound();
    return loadTopics(ctx, ctx.db.kysely, accountId, { profileId });
  });

  app.post('/app/profiles/:id/topics/', {
    schema: { tags, summary: 'Create a topic in a profile', params: IdParams, body: TopicBody, response: { 201: TopicSchema } },
  }, async (request, reply) => {
    const accountId = callerOf(request).accountId;
    const profileId = parseId(request.params.id);
    const row = await writeAppData(ctx, async (trx) => {
      const profile = await findProfile(trx, accountId, profileId);
      if (!profile) throw notFound();
      await startChange(trx, profile.app_user_id);
      enforceQuota(await countTopics(trx, accountId, profileId), 1, ctx.config.quotas.topicsPerProfile, 'topics in a profile');
      return insertTopic(trx, { accountId, profileId, name: request.body.name, topicType: request.body.topic_type });
    });
    const body = toTopic(ctx, row, []);
    return reply.code(201).header('location', body.url).send(body);
  });

  app.get('/app/topics/:id/', {
    schema: { tags, summary: 'A topic, items in full', params: IdParams, response: { 200: TopicSchema } },
  }, async (request) => loadTopic(callerOf(request).accountId, parseId(request.params.id)));

  const changeSchemas = { patch: TopicPatchBody, put: TopicBody };
  for (const method of ['patch', 'put'] as const) {
    app[method]('/app/topics/:id/', {
      schema: { tags, summary: "Change a topic's name or type", params: IdParams, body: changeSchemas[method], response: { 200: TopicSchema } },
    }, async (request) => {
      const accountId = callerOf(request).accountId;
      const id = parseId(request.params.id);
      const { name, topic_type } = request.body;
      await writeAppData(ctx, async (trx) => {
        const topic = await findTopic(trx, accountId, id);
        if (!topic) throw notFound();
        await startChange(trx, topic.app_user_id);
        const values = { ...(name !== undefined && { name }), ...(topic_type !== undefined && { topic_type }) };
        if (Object.keys(values).length > 0) await updateTopic(trx, accountId, id, values);
      });
      return loadTopic(accountId, id);
    });
  }

  app.delete('/app/topics/:id/', {
    schema: { tags, summary: 'Delete a topic with its items', params: IdParams, response: { 204: Type.Null() } },
  }, async (request, reply) => {
    const accountId = callerOf(request).accountId;
    const id = parseId(request.params.id);
    await writeAppData(ctx, async (trx) => {
      const topic = await findTopic(trx, accountId, id);
      if (!topic) throw notFound();
      await startChange(trx, topic.app_user_id);
      await deleteTopic(trx, accountId, id);
    });
    return reply.code(204).send(null);
  });
}
