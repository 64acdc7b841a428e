// /app/topic-types/, /app/profiles/{id}/topics/ and /app/topics/{id}/ (docs/app-data.md).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import type { App } from '../http/types.ts';
import { NOT_ALLOWED } from './kernel/access.ts';
import { IdParams } from './kernel/field-schemas.ts';
import type { Current } from './kernel/conditional-write.ts';
import { createdOnce } from './kernel/idempotent-create.ts';
import { accessorTerms, changeObject, onObject, registerDelete } from './kernel/route-helpers.ts';
import { TopicBody, TopicPatchBody, TopicSchema } from './topic-schemas.ts';
import { changeTopic, createTopic, getTopic, listTopics, removeTopic } from './topic-service.ts';
import { sendView } from './views/tree-views.ts';
import { TOPIC_TYPES, TopicTypeSchema } from './topic-types.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['topics'];

/** The detail as a GET answers it: what If-Match is checked against. */
const current: Current = { schema: TopicSchema, read: getTopic };

export function registerTopicRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/app/topic-types/',
    {
      schema: {
        tags,
        summary: 'The topic types and their labels',
        operationId: 'listTopicTypes',
        response: { 200: Type.Array(TopicTypeSchema), ...errors({ auth: true }) },
      },
    },
    async () => TOPIC_TYPES,
  );

  app.get(
    '/app/profiles/:id/topics/',
    {
      schema: {
        tags,
        summary: "A profile's topics, items in full",
        params: IdParams,
        operationId: 'listTopics',
        response: { 200: Type.Array(TopicSchema), ...errors({ auth: true, notFound: true }) },
      },
    },
    async (request, reply) => sendView(reply, await onObject(ctx, request, 'profile', 'read', (a, id) => listTopics(ctx, a, id))),
  );

  app.post(
    '/app/profiles/:id/topics/',
    {
      schema: {
        tags,
        summary: 'Create a topic in a profile',
        params: IdParams,
        body: TopicBody,
        operationId: 'createTopic',
        response: { 201: TopicSchema, ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, idempotent: true }) },
      },
    },
    async (request, reply) =>
      createdOnce(ctx, request, reply, (terms) =>
        onObject(ctx, request, 'profile', 'write', (a, id) =>
          createTopic(ctx, a, id, request.body, accessorTerms(request, a, 'topic', 'created', terms)),
        ),
      ),
  );

  app.get(
    '/app/topics/:id/',
    {
      schema: {
        tags,
        summary: 'A topic, items in full',
        params: IdParams,
        operationId: 'getTopic',
        response: { 200: TopicSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    async (request, reply) => sendView(reply, await onObject(ctx, request, 'topic', 'read', (a, id) => getTopic(ctx, a, id))),
  );

  const changeSchemas = { patch: TopicPatchBody, put: TopicBody };
  for (const method of ['patch', 'put'] as const) {
    app[method](
      '/app/topics/:id/',
      {
        schema: {
          tags,
          summary: "Change a topic's name or type",
          params: IdParams,
          body: changeSchemas[method],
          operationId: method === 'patch' ? 'updateTopic' : 'replaceTopic',
          response: {
            200: TopicSchema,
            ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, preconditionFailed: true }),
          },
        },
      },
      async (request, reply) =>
        sendView(
          reply,
          await changeObject(ctx, request, reply, 'topic', current, (a, id, terms) => changeTopic(ctx, a, id, request.body, terms)),
        ),
    );
  }

  registerDelete(
    app,
    ctx,
    '/app/topics/:id/',
    'topic',
    { tags, operationId: 'deleteTopic', summary: 'Delete a topic with its items' },
    current,
    (a, id, terms) => removeTopic(ctx, a, id, terms),
  );
}
