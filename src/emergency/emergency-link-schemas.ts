// The emergency link as its owner sees it (docs/emergency-links.md): {id, url, label, created_at,
// expires_at, has_pin, views, last_viewed_at, emergency_items, emergency_contacts}; the create's
// answer adds `link`, the public URL, shown then only. And a view: {viewed_at, ip_address, user_agent}.
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import { NAME_MAX_LENGTH, Nullable, Url } from '../app-data/kernel/field-schemas.ts';
import { PIN_PATTERN } from '../http/validation-errors.ts';

const Time = Type.String({ format: 'date-time' });

export const EmergencyLinkSchema = Type.Object({
  id: Type.Integer(),
  url: Url,
  label: Type.String(),
  created_at: Time,
  expires_at: Nullable(Type.String({ format: 'date-time', description: 'null: the link never expires' })),
  has_pin: Type.Boolean(),
  views: Type.Integer({ description: 'How many times the link was opened, ever (the list of views keeps 90 days)' }),
  last_viewed_at: Nullable(Time),
  emergency_items: Nullable(
    Type.Array(Type.Integer(), { description: 'The emergency items the link shows, in the owner’s order; null: every one' }),
  ),
  emergency_contacts: Nullable(
    Type.Array(Type.Integer(), { description: 'The emergency contacts the link shows, in the owner’s order; null: every one' }),
  ),
});
export type EmergencyLink = Static<typeof EmergencyLinkSchema>;

export const CreatedEmergencyLinkSchema = Type.Object({
  ...EmergencyLinkSchema.properties,
  link: Type.String({
    format: 'uri',
    description: 'The public URL ($PUBLIC_URL/emergency/<token>). Shown in this answer only: the service keeps no copy of the token',
  }),
});
export type CreatedEmergencyLink = Static<typeof CreatedEmergencyLinkSchema>;

const PinField = Type.String({ pattern: PIN_PATTERN, description: '4 to 8 digits, as a string' });
const LabelField = Type.String({
  maxLength: NAME_MAX_LENGTH,
  description: 'What the link is for (a wallet card, a bracelet); may be empty',
});
const ChoiceField = (what: string) =>
  Nullable(
    Type.Array(Type.Integer(), {
      maxItems: 1000,
      description: `Ids of this app user's ${what} the link shows (in the owner's order, whatever the order here); null: every one, now and later`,
    }),
  );
const Choices = {
  emergency_items: Type.Optional(ChoiceField('emergency items')),
  emergency_contacts: Type.Optional(ChoiceField('emergency contacts')),
};
const ExpiryField = Nullable(
  Type.String({ format: 'date-time', description: 'A future time; null: never. Left out on create: one year from now' }),
);

export const EmergencyLinkBody = Type.Object(
  {
    label: Type.Optional(LabelField),
    expires_at: Type.Optional(ExpiryField),
    pin: Type.Optional(Nullable(PinField)),
    ...Choices,
  },
  { examples: [{ label: 'Wallet card', pin: '2468' }] },
);
export type EmergencyLinkInput = Static<typeof EmergencyLinkBody>;

export const EmergencyLinkPatchBody = Type.Object(
  {
    label: Type.Optional(LabelField),
    expires_at: Type.Optional(ExpiryField),
    pin: Type.Optional(Nullable(Type.String({ pattern: PIN_PATTERN, description: '4 to 8 digits; null removes the PIN' }))),
    ...Choices,
  },
  { examples: [{ label: 'Wallet card (blue)' }] },
);
export type EmergencyLinkChanges = Static<typeof EmergencyLinkPatchBody>;

export const LinkViewSchema = Type.Object({
  viewed_at: Time,
  ip_address: Nullable(Type.String({ description: 'As seen under TRUST_PROXY' })),
  user_agent: Nullable(Type.String({ description: 'At most 255 characters' })),
});
export type LinkView = Static<typeof LinkViewSchema>;

export interface EmergencyLinkRow {
  id: number;
  label: string;
  created_at: number;
  expires_at: number | null;
  has_pin: boolean;
  view_count: number;
  last_viewed_at: number | null;
  emergency_items: number[] | null;
  emergency_contacts: number[] | null;
}

export interface LinkViewRow {
  viewed_at: number;
  ip_address: string | null;
  user_agent: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export const emergencyLinkUrl = (ctx: AppContext, id: number) => `${ctx.config.publicUrl}/app/emergency-links/${id}/`;

/** The public URL of a link: the web client's page for it, which reads /public/emergency/<token>/. */
export const publicLink = (ctx: AppContext, token: string) => `${ctx.config.publicUrl}/emergency/${token}`;

export function toEmergencyLink(ctx: AppContext, row: EmergencyLinkRow): EmergencyLink {
  return {
    id: row.id,
    url: emergencyLinkUrl(ctx, row.id),
    label: row.label,
    created_at: iso(row.created_at),
    expires_at: isoOrNull(row.expires_at),
    has_pin: row.has_pin,
    views: row.view_count,
    last_viewed_at: isoOrNull(row.last_viewed_at),
    emergency_items: row.emergency_items,
    emergency_contacts: row.emergency_contacts,
  };
}

export function toLinkView(row: LinkViewRow): LinkView {
  return { viewed_at: iso(row.viewed_at), ip_address: row.ip_address, user_agent: row.user_agent };
}
