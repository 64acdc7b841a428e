// /app/topics/{id}/items/ and /app/items/{id}/ (docs/app-data.md).
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { callerOf } from '../auth/token-auth.ts';
import { parseId } from '../http/ids.ts';
import type { App } from '../http/types.ts';
import { NOT_ALLOWED } from './kernel/access.ts';
import { IdParams } from './kernel/field-schemas.ts';
import { locateItem } from './item-queries.ts';
import { ItemBody, ItemPatchBody, ItemSchema } from './item-schemas.ts';
import { createItem, getItem, removeItem, updateItem } from './item-service.ts';
import { loadItems } from './views/item-loads.ts';
import { sendRendering, type RenderingCache } from './views/rendering-cache.ts';
import type { Current } from './kernel/conditional-write.ts';
import { createdOnce } from './kernel/idempotent-create.ts';
import { accessorTerms, changeObject, onObject, registerDelete } from './kernel/route-helpers.ts';
import { writeItems } from './views/paged-tree.ts';
import { findTopicWithHeld } from './views/tree-queries.ts';
import { fitsInline, spoolView } from './views/tree-views.ts';
import { errors } from '../http/error-schemas.ts';

const tags = ['items'];

/** The detail as a GET answers it: what If-Match is checked against. */
const current: Current = { schema: ItemSchema, read: getItem };

export function registerItemRoutes(app: App, ctx: AppContext, cache: RenderingCache): void {
  app.get(
    '/app/topics/:id/items/',
    {
      schema: {
        tags,
        summary: "A topic's items with their contents",
        params: IdParams,
        operationId: 'listItems',
        response: { 200: Type.Array(ItemSchema), ...errors({ auth: true, notFound: true }) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const topicId = parseId(request.params.id);
      return sendRendering(reply, ctx, cache, { kind: 'topic', id: topicId, key: `topic-items:${topicId}` }, caller, async (a) => {
        const topic = await findTopicWithHeld(ctx.db.kysely, a.accountId, topicId);
        if (!topic) return undefined;
        if (!fitsInline(topic)) {
          return spoolView(
            ctx,
            (db) => findTopicWithHeld(db, a.accountId, topicId),
            async (db, out, current) => {
              out.json.openArray();
              await writeItems(ctx, a, db, out, current);
              out.json.close();
            },
          );
        }
        return loadItems(ctx, a, ctx.db.kysely, { topicId });
      });
    },
  );

  app.post(
    '/app/topics/:id/items/',
    {
      schema: {
        tags,
        summary: 'Create an item with exactly one of image_content and list_content',
        params: IdParams,
        body: ItemBody,
        operationId: 'createItem',
        response: { 201: ItemSchema, ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, idempotent: true }) },
      },
    },
    async (request, reply) =>
      createdOnce(ctx, request, reply, (terms) =>
        onObject(ctx, request, 'topic', 'write', (a, id) =>
          createItem(ctx, a, id, request.body, accessorTerms(request, a, 'item', 'created', terms)),
        ),
      ),
  );

  app.get(
    '/app/items/:id/',
    {
      schema: {
        tags,
        summary: 'An item with its content',
        params: IdParams,
        operationId: 'getItem',
        response: { 200: ItemSchema, ...errors({ auth: true, notFound: true }) },
      },
    },
    (request) => onObject(ctx, request, 'item', 'read', (a, id, location) => getItem(ctx, a, id, location), locateItem),
  );

  const changeSchemas = { patch: ItemPatchBody, put: ItemBody };
  for (const method of ['patch', 'put'] as const) {
    app[method](
      '/app/items/:id/',
      {
        schema: {
          tags,
          summary: 'Change an item’s name and the fields of its content (list_content.entries replaces the list)',
          params: IdParams,
          body: changeSchemas[method],
          operationId: method === 'patch' ? 'updateItem' : 'replaceItem',
          response: {
            200: ItemSchema,
            ...errors({ auth: true, forbidden: NOT_ALLOWED, notFound: true, body: true, preconditionFailed: true }),
          },
        },
      },
      async (request, reply) =>
        changeObject(ctx, request, reply, 'item', current, (a, id, terms) => updateItem(ctx, a, id, request.body, terms)),
    );
  }

  registerDelete(
    app,
    ctx,
    '/app/items/:id/',
    'item',
    { tags, operationId: 'deleteItem', summary: 'Delete an item with its content' },
    current,
    (a, id, terms) => removeItem(ctx, a, id, terms),
  );
}
