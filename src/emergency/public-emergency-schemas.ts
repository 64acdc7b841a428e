// What an emergency link shows (docs/emergency-links.md), and nothing more: the app user's name, its
// emergency items (media as file URLs signed for 15 minutes) and its emergency contacts, and
// when this view was recorded, and the language the person wrote it in. No ids, no API URLs, nothing of the account, its addresses,
// profiles, topics or gallery. test/emergency/public-fields.test.ts holds the list of fields.
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import type { EmergencyContactRow } from '../app-data/emergency-contact-schemas.ts';
import type { EmergencyItemRow } from '../app-data/emergency-item-schemas.ts';
import { Nullable } from '../app-data/kernel/field-schemas.ts';
import { PIN_PATTERN } from '../http/validation-errors.ts';
import { type Language, SUPPORTED_LANGUAGES } from '../i18n/languages.ts';
import { expiryFor, signedFileUrl } from '../media/signed-urls.ts';

/** How long a file URL in a public answer works (at least; expiryFor rounds up). */
export const PUBLIC_FILE_URL_TTL_MS = 15 * 60_000;

export const TokenParams = Type.Object({ token: Type.String({ description: 'The token of the link ($PUBLIC_URL/emergency/<token>)' }) });

export const PinBody = Type.Object(
  { pin: Type.String({ pattern: PIN_PATTERN, description: 'The link’s PIN: 4 to 8 digits, as a string' }) },
  { examples: [{ pin: '2468' }] },
);

const PublicMediaSchema = Type.Object({
  name: Type.String(),
  file: Type.String({ format: 'uri', description: 'Downloads the file without a token; works for 15 minutes' }),
  content_type: Type.String(),
  size: Type.Integer(),
});

export const PublicEmergencyInfoSchema = Type.Object({
  name: Type.String({ description: 'The app user’s name' }),
  emergency_items: Type.Array(
    Type.Object({ name: Type.String(), description: Type.String(), media_resource: Nullable(PublicMediaSchema) }),
  ),
  emergency_contacts: Type.Array(
    Type.Object({
      name: Type.String(),
      relation: Type.String(),
      phone_number: Type.String({ description: 'As written, so that a tel: link dials it' }),
      alt_phone_number: Type.String({ description: 'May be empty' }),
      email: Type.String({ description: 'May be empty' }),
    }),
  ),
  viewed_at: Type.String({ format: 'date-time', description: 'When this view was recorded (the owner sees it)' }),
  language: Type.Enum([...SUPPORTED_LANGUAGES], {
    description:
      'The language the person wrote this in: their account’s (en, de, fr or es); a page shows their text as written and says so',
  }),
});
export type PublicEmergencyInfo = Static<typeof PublicEmergencyInfoSchema>;

export function toPublicEmergencyInfo(
  ctx: AppContext,
  name: string,
  items: EmergencyItemRow[],
  contacts: EmergencyContactRow[],
  viewedAt: number,
  language: Language,
): PublicEmergencyInfo {
  const expires = expiryFor(viewedAt, PUBLIC_FILE_URL_TTL_MS);
  return {
    name,
    emergency_items: items.map(({ name, description, media }) => ({
      name,
      description,
      media_resource: media && {
        name: media.name,
        file: signedFileUrl(ctx.config.publicUrl, ctx.secrets.mediaUrl, media.storage_key, expires),
        content_type: media.content_type,
        size: media.size,
      },
    })),
    emergency_contacts: contacts.map(({ name, relation, phone_number, alt_phone_number, email }) => ({
      name,
      relation,
      phone_number,
      alt_phone_number,
      email,
    })),
    viewed_at: new Date(viewedAt).toISOString(),
    language,
  };
}
