// Item (docs/app-data.md): {id, url, name, image_content, list_content}, exactly one content non-null.
// Contents are read as objects (media in full) and written with media ids.
import { Type, type Static } from 'typebox';
import { namedExamples } from '../http/openapi-document.ts';
import type { AppContext } from '../context.ts';
import { toMediaResource, type MediaResource, type SignedFor } from '../media/media-view.ts';
import { LongTextField, MediaIdField, MediaObjectSchema, NameField, Nullable, Url } from './kernel/field-schemas.ts';
import type { ItemRow } from './item-queries.ts';
import { EntryTextField, ListEntrySchema, toListEntry, type ListEntryRow } from './list-entry-schemas.ts';
import { itemUrl } from './urls.ts';

export const ImageContentSchema = Type.Object({
  id: Type.Integer(),
  description: Type.String(),
  image_resource: Nullable(MediaObjectSchema),
  media_resource: Nullable(MediaObjectSchema),
});

export const ListContentSchema = Type.Object({
  id: Type.Integer(),
  entries: Type.Array(ListEntrySchema),
});

export const ItemSchema = Type.Object({
  id: Type.Integer(),
  url: Url,
  name: Type.String(),
  image_content: Nullable(ImageContentSchema),
  list_content: Nullable(ListContentSchema),
});
export type Item = Static<typeof ItemSchema>;

export const ImageContentWrite = Type.Object({
  description: Type.Optional(LongTextField),
  image_resource: Type.Optional(MediaIdField),
  media_resource: Type.Optional(MediaIdField),
});
export type ImageContentInput = Static<typeof ImageContentWrite>;

export const ListContentWrite = Type.Object({
  entries: Type.Optional(Type.Array(Type.Object({ text: EntryTextField }), { description: 'Replaces the whole list' })),
});
export type ListContentInput = Static<typeof ListContentWrite>;

/** One content per item: a list, or an image (its media ids are the caller's own uploads, so the example has none). */
const ITEM_EXAMPLES = namedExamples({
  list: {
    summary: 'A list item',
    value: { name: 'Packing list', list_content: { entries: [{ text: 'Passport' }, { text: 'Phone charger' }] } },
  },
  image: {
    summary: 'An image item (image_resource and media_resource: ids of gallery uploads)',
    value: { name: 'Passport photo', image_content: { description: 'The photo page of my passport' } },
  },
});

export const ItemBody = Type.Object(
  {
    name: NameField,
    image_content: Type.Optional(Nullable(ImageContentWrite)),
    list_content: Type.Optional(Nullable(ListContentWrite)),
  },
  { description: 'Exactly one of image_content and list_content; the kind cannot change later.', ...ITEM_EXAMPLES },
);
export type ItemInput = Static<typeof ItemBody>;

export const ItemPatchBody = Type.Partial(ItemBody, { examples: [{ name: 'Summer packing list' }] });
export type ItemChanges = Static<typeof ItemPatchBody>;

/** An item row's columns of image content and its media, for an item that has none. */
export const NO_IMAGE_CONTENT = {
  image_content_id: null,
  description: null,
  image_media_id: null,
  image_media_name: null,
  image_media_storage_key: null,
  image_media_content_type: null,
  image_media_size: null,
  content_media_id: null,
  content_media_name: null,
  content_media_storage_key: null,
  content_media_content_type: null,
  content_media_size: null,
} as const;

/** The read shape of an item, from its row (item-queries.ts) and its list entries (none for an image item). */
/** `signedFor`: whom its media URLs are signed for. */
export function toItem(ctx: AppContext, signedFor: SignedFor, row: ItemRow, entries: ListEntryRow[]): Item {
  return {
    id: row.id,
    url: itemUrl(ctx, row.id),
    name: row.name,
    image_content:
      row.image_content_id === null
        ? null
        : {
            id: row.image_content_id,
            description: row.description ?? '',
            image_resource: media(
              ctx,
              signedFor,
              row.image_media_id,
              row.image_media_name,
              row.image_media_storage_key,
              row.image_media_content_type,
              row.image_media_size,
            ),
            media_resource: media(
              ctx,
              signedFor,
              row.content_media_id,
              row.content_media_name,
              row.content_media_storage_key,
              row.content_media_content_type,
              row.content_media_size,
            ),
          },
    list_content:
      row.list_content_id === null ? null : { id: row.list_content_id, entries: entries.map((entry) => toListEntry(ctx, entry)) },
  };
}

function media(
  ctx: AppContext,
  signedFor: SignedFor,
  id: number | null,
  name: string | null,
  storageKey: string | null,
  contentType: string | null,
  size: number | null,
): MediaResource | null {
  if (id === null || name === null || storageKey === null || contentType === null || size === null) return null;
  return toMediaResource(ctx, signedFor, { id, name, storage_key: storageKey, content_type: contentType, size: Number(size) });
}
