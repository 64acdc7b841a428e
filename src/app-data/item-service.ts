// Items (docs/app-data.md): exactly one content per item, content type fixed at creation, media of
// the same app user only, a list written as a whole.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Access } from './kernel/access.ts';
import type { Database } from '../db/schema.ts';
import { fieldError, invalid, nonFieldError, notFound } from '../errors.ts';
import {
  countItems,
  deleteItem,
  findItem,
  insertImageContent,
  insertItem,
  insertListContent,
  updateImageContent,
  updateItemName,
  type ImageContentValues,
  type LocatedItem,
} from './item-queries.ts';
import {
  NO_IMAGE_CONTENT,
  toItem,
  type ImageContentInput,
  type Item,
  type ItemChanges,
  type ItemInput,
  type ListContentInput,
} from './item-schemas.ts';
import { insertEntries, replaceEntries } from './list-entry-queries.ts';
import { invalidMediaReferences } from './media-references.ts';
import type { MediaView } from '../auth/private-media.ts';
import { countAdded, writeOwned, writeUnderTopic, type Held } from './kernel/owned-write.ts';
import { writeListItemUnderTopic } from './list-item-creates.ts';
import type { WriteTerms } from './kernel/write-terms.ts';
import { loadItems } from './views/item-loads.ts';
import { enforceAccountBounds, enforceQuota, type Usage } from './kernel/quotas.ts';

/** `location`: where the item was found, with its row, when the access decision located it. */
export async function getItem(ctx: AppContext, access: Access, id: number, location: LocatedItem | null = null): Promise<Item> {
  if (!location) return reload(ctx, access, ctx.db.kysely, id);
  const [item] = await loadItems(ctx, access, ctx.db.kysely, { itemId: id }, [location]);
  if (!item) throw notFound();
  return item;
}

/** An image content shows only media the writer sees (media-references.ts). */
export async function createItem(ctx: AppContext, access: Access, topicId: number, input: ItemInput, terms: WriteTerms): Promise<Item> {
  const { accountId } = access;
  const plain = async (trx: Kysely<Database>, { app_user_id: appUserId }: Held, usage: Usage): Promise<Item> => {
    const image = input.image_content ?? null;
    const list = input.list_content ?? null;
    if ((image === null) === (list === null)) {
      throw nonFieldError('appData.itemNeedsOneContent');
    }
    const quota = ctx.config.quotas.itemsPerTopic;
    enforceQuota(await countItems(trx, accountId, topicId), 1, quota, 'quotas.itemsPerTopic');
    if (image) await checkImageMedia(trx, accountId, appUserId, image, access);
    const texts = list ? (entryTexts(ctx, list) ?? []) : [];
    enforceAccountBounds(ctx.config.quotas, usage);

    const itemId = await insertItem(trx, { accountId, topicId, name: input.name });
    if (image) {
      await insertImageContent(trx, accountId, itemId, imageValues(image));
      return reload(ctx, access, trx, itemId);
    }
    // A new list item is all in hand: answer without reading it back.
    const listContentId = await insertListContent(trx, accountId, itemId);
    const entries = await insertEntries(trx, accountId, listContentId, texts);
    return toItem(
      ctx,
      access,
      { ...NO_IMAGE_CONTENT, id: itemId, topic_id: topicId, name: input.name, list_content_id: listContentId },
      entries,
    );
  };
  // The busiest write, with the others of this turn in one round trip where the database can
  // (the write kernel chooses). A list over its entries quota takes the plain path, which
  // answers a foreign topic's 404 first.
  const list = input.list_content;
  if (list && !input.image_content && (list.entries?.length ?? 0) <= ctx.config.quotas.entriesPerItem) {
    const texts = entryTexts(ctx, list) ?? [];
    return writeListItemUnderTopic(
      ctx,
      terms,
      { accountId, topicId, name: input.name, texts },
      ({ itemId, listContentId, entries }) =>
        toItem(
          ctx,
          access,
          { ...NO_IMAGE_CONTENT, id: itemId, topic_id: topicId, name: input.name, list_content_id: listContentId },
          entries,
        ),
      plain,
    );
  }
  return writeUnderTopic(ctx, terms, accountId, topicId, plain, { items: 1, entries: input.list_content?.entries?.length ?? 0 });
}

/** PATCH and PUT: the name, and the fields of the content the item already has. */
export async function updateItem(ctx: AppContext, access: Access, itemId: number, changes: ItemChanges, terms: WriteTerms): Promise<Item> {
  const { accountId } = access;
  return writeOwned(
    ctx,
    terms,
    (trx) => findItem(trx, accountId, itemId),
    async (trx, item) => {
      const isImage = item.image_content_id !== null;
      const image = changes.image_content;
      const list = changes.list_content;
      if ((isImage && list != null) || (!isImage && image != null)) {
        throw nonFieldError(isImage ? 'appData.itemHasImageContent' : 'appData.itemHasListContent');
      }
      // The item's own content cannot be removed; null for the other content is what it already is.
      if (isImage && image === null) throw fieldError('image_content', 'validation.notNull');
      if (!isImage && list === null) throw fieldError('list_content', 'validation.notNull');

      if (changes.name !== undefined) await updateItemName(trx, accountId, itemId, changes.name);
      if (image && item.image_content_id !== null) {
        await checkImageMedia(trx, accountId, item.app_user_id, image, access);
        const values = imageValues(image);
        if (Object.keys(values).length > 0) await updateImageContent(trx, accountId, item.image_content_id, values);
      }
      if (list && item.list_content_id !== null) {
        const texts = entryTexts(ctx, list);
        if (texts) {
          // The old entries' removal is counted by its trigger; the new ones here.
          await replaceEntries(trx, accountId, item.list_content_id, texts);
          enforceAccountBounds(ctx.config.quotas, await countAdded(trx, item.app_user_id, { entries: texts.length }));
        }
      }
      return reload(ctx, access, trx, itemId);
    },
  );
}

export async function removeItem(ctx: AppContext, access: Access, id: number, terms: WriteTerms): Promise<void> {
  const { accountId } = access;
  await writeOwned(
    ctx,
    terms,
    (trx) => findItem(trx, accountId, id),
    (trx) => deleteItem(trx, accountId, id),
  );
}

async function checkImageMedia(
  trx: Kysely<Database>,
  accountId: number,
  appUserId: number,
  image: ImageContentInput,
  writer: MediaView,
): Promise<void> {
  const references = { image_resource: image.image_resource, media_resource: image.media_resource };
  const errors = await invalidMediaReferences(trx, accountId, appUserId, references, writer);
  if (errors) throw invalid({ image_content: errors });
}

function imageValues(image: ImageContentInput): ImageContentValues {
  const values: ImageContentValues = {};
  if (image.description !== undefined) values.description = image.description;
  if (image.image_resource !== undefined) values.image_resource_id = image.image_resource;
  if (image.media_resource !== undefined) values.media_resource_id = image.media_resource;
  return values;
}

/** The texts of a list write (undefined when it leaves the entries alone), within the per-item quota. */
function entryTexts(ctx: AppContext, list: ListContentInput): string[] | undefined {
  if (list.entries === undefined) return undefined;
  enforceQuota(0, list.entries.length, ctx.config.quotas.entriesPerItem, 'quotas.entriesPerItem');
  return list.entries.map((entry) => entry.text);
}

async function reload(ctx: AppContext, access: Access, trx: Kysely<Database>, itemId: number): Promise<Item> {
  const [item] = await loadItems(ctx, access, trx, { itemId });
  if (!item) throw notFound();
  return item;
}
