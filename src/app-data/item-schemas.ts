// Item (contract §5): {id, url, name, image_content, list_content}, exactly one content non-null.
// Contents are read as objects (media in full) and written with media ids.
import { Type, type Static } from 'typebox';
import { LongTextField, MediaIdField, MediaObjectSchema, NameField, Nullable, Url } from './field-schemas.ts';
import { EntryTextField, ListEntrySchema } from './list-entry-schemas.ts';

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

export const ItemBody = Type.Object({
  name: NameField,
  image_content: Type.Optional(Nullable(ImageContentWrite)),
  list_content: Type.Optional(Nullable(ListContentWrite)),
});
export type ItemInput = Static<typeof ItemBody>;

export const ItemPatchBody = Type.Partial(ItemBody);
export type ItemChanges = Static<typeof ItemPatchBody>;
