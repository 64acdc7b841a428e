// List entry (docs/app-data.md): {id, url, text}, text required, at most 255 characters.
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import { NAME_MAX_LENGTH, Url } from './kernel/field-schemas.ts';
import { listEntryUrl } from './urls.ts';

export const EntryTextField = Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH });

export const ListEntrySchema = Type.Object({
  id: Type.Integer(),
  url: Url,
  text: Type.String(),
});
export type ListEntry = Static<typeof ListEntrySchema>;

export const ListEntryBody = Type.Object({ text: EntryTextField }, { examples: [{ text: 'Travel adapter' }] });
export const ListEntryPatchBody = Type.Partial(ListEntryBody, { examples: [{ text: 'Universal travel adapter' }] });

export interface ListEntryRow {
  id: number;
  text: string;
}

export function toListEntry(ctx: AppContext, row: ListEntryRow): ListEntry {
  return { id: row.id, url: listEntryUrl(ctx, row.id), text: row.text };
}
