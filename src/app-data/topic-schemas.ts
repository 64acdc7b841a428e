// Topic (docs/app-data.md): {id, url, name, topic_type, items_url, items}, items in full, everywhere.
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import { NameField, Url } from './kernel/field-schemas.ts';
import { ItemSchema, type Item } from './item-schemas.ts';
import { TopicTypeField } from './topic-types.ts';
import { itemsUrl, topicUrl } from './urls.ts';

export const TopicSchema = Type.Object({
  id: Type.Integer(),
  url: Url,
  name: Type.String(),
  topic_type: Type.Integer(),
  items_url: Url,
  items: Type.Array(ItemSchema),
});
export type Topic = Static<typeof TopicSchema>;

export const TopicBody = Type.Object({ name: NameField, topic_type: TopicTypeField }, { examples: [{ name: 'Travel', topic_type: 3 }] });
export const TopicPatchBody = Type.Partial(TopicBody, { examples: [{ name: 'Holidays' }] });

export interface TopicRow {
  id: number;
  name: string;
  topic_type: number;
}

export function toTopic(ctx: AppContext, row: TopicRow, items: Item[]): Topic {
  return { id: row.id, url: topicUrl(ctx, row.id), name: row.name, topic_type: row.topic_type, items_url: itemsUrl(ctx, row.id), items };
}
