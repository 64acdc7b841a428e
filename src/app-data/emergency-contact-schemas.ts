// Emergency contact (docs/app-data.md): {id, url, name, relation, phone_number, alt_phone_number, email}.
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import { NAME_MAX_LENGTH, NameField, Url } from './kernel/field-schemas.ts';
import { emergencyContactUrl } from './urls.ts';

// validation-errors.ts recognises the \d{9,15} patterns and words the v1 phone message.
// v1's digits, or an international E.164 number, kept as written so that a tel: link dials it.
const PHONE_PATTERN = '^(1?\\d{9,15}|\\+[1-9]\\d{6,14})$';
const OPTIONAL_PHONE_PATTERN = '^(1?\\d{9,15}|\\+[1-9]\\d{6,14})?$';

export const EmergencyContactSchema = Type.Object({
  id: Type.Integer(),
  url: Url,
  name: Type.String(),
  relation: Type.String(),
  phone_number: Type.String(),
  alt_phone_number: Type.String(),
  email: Type.String(),
});
export type EmergencyContact = Static<typeof EmergencyContactSchema>;

export const EmergencyContactBody = Type.Object(
  {
    name: NameField,
    relation: Type.Optional(Type.String({ maxLength: NAME_MAX_LENGTH })),
    phone_number: Type.String({
      pattern: PHONE_PATTERN,
      description: "9 to 15 digits (no spaces), optionally after a leading 1, or E.164: '+' and 7 to 15 digits",
    }),
    alt_phone_number: Type.Optional(Type.String({ pattern: OPTIONAL_PHONE_PATTERN, description: 'As phone_number; may be empty' })),
    email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], { description: 'May be empty' })),
  },
  {
    examples: [
      { name: 'Mary Somerville', relation: 'Friend', phone_number: '447700900123', alt_phone_number: '', email: 'mary@example.com' },
    ],
  },
);
export type EmergencyContactInput = Static<typeof EmergencyContactBody>;
export const EmergencyContactPatchBody = Type.Partial(EmergencyContactBody, { examples: [{ relation: 'Tutor' }] });
export type EmergencyContactChanges = Static<typeof EmergencyContactPatchBody>;

export interface EmergencyContactRow {
  id: number;
  name: string;
  relation: string;
  phone_number: string;
  alt_phone_number: string;
  email: string;
}

export function toEmergencyContact(ctx: AppContext, row: EmergencyContactRow): EmergencyContact {
  return {
    id: row.id,
    url: emergencyContactUrl(ctx, row.id),
    name: row.name,
    relation: row.relation,
    phone_number: row.phone_number,
    alt_phone_number: row.alt_phone_number,
    email: row.email,
  };
}
