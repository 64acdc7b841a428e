// Emergency item (docs/app-data.md): {id, url, name, description, media_resource}; media in full on
// read, an id of the same app user's media (or null) on write.
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import { toMediaResource, type MediaRow, type SignedFor } from '../media/media-view.ts';
import { LongTextField, MediaIdField, MediaObjectSchema, NameField, Nullable, Url } from './kernel/field-schemas.ts';
import { emergencyItemUrl } from './urls.ts';

export const EmergencyItemSchema = Type.Object({
  id: Type.Integer(),
  url: Url,
  name: Type.String(),
  description: Type.String(),
  media_resource: Nullable(MediaObjectSchema),
});
export type EmergencyItem = Static<typeof EmergencyItemSchema>;

export const EmergencyItemBody = Type.Object(
  {
    name: NameField,
    description: Type.Optional(LongTextField),
    media_resource: Type.Optional(MediaIdField),
  },
  { examples: [{ name: 'Allergies', description: 'Penicillin; carries an adrenaline pen in the left coat pocket.' }] },
);
export type EmergencyItemInput = Static<typeof EmergencyItemBody>;
export const EmergencyItemPatchBody = Type.Partial(EmergencyItemBody, { examples: [{ description: 'Penicillin and peanuts.' }] });
export type EmergencyItemChanges = Static<typeof EmergencyItemPatchBody>;

export interface EmergencyItemRow {
  id: number;
  name: string;
  description: string;
  media: MediaRow | null;
}

/** `signedFor`: whom its media URL is signed for. */
export function toEmergencyItem(ctx: AppContext, signedFor: SignedFor, row: EmergencyItemRow): EmergencyItem {
  return {
    id: row.id,
    url: emergencyItemUrl(ctx, row.id),
    name: row.name,
    description: row.description,
    media_resource: row.media ? toMediaResource(ctx, signedFor, row.media) : null,
  };
}
