// App user (docs/app-data.md, docs/sharing.md): {id, url, name, quote, is_owned_by_current_user, permissions};
// the detail adds the URLs of what it holds and its profiles (list shape) as the caller may see
// them.
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import { LongTextField, NameField, Nullable, Url } from './kernel/field-schemas.ts';
import { ProfileSchema, type Profile } from './profile-schemas.ts';
import { appUserUrl, emergencyContactsUrl, emergencyItemsUrl, galleryUrl, profilesUrl } from './urls.ts';

export const AppUserSchema = Type.Object({
  id: Type.Integer(),
  url: Url,
  name: Type.String(),
  quote: Nullable(Type.String()),
  is_owned_by_current_user: Type.Boolean({ description: 'False for an app user shared with the caller (docs/sharing.md)' }),
  permissions: Type.Object(
    { read: Type.Boolean(), write: Type.Boolean() },
    { description: 'What the caller may do with what the app user holds; only its owner changes the app user itself' },
  ),
});
export type AppUser = Static<typeof AppUserSchema>;

export const AppUserDetailSchema = Type.Object({
  ...AppUserSchema.properties,
  emergency_items_url: Url,
  emergency_contacts_url: Url,
  gallery_url: Url,
  profiles_url: Url,
  profiles: Type.Array(ProfileSchema),
});
export type AppUserDetail = Static<typeof AppUserDetailSchema>;

/** Every field is optional, on PUT too: name defaults to the account's first name. */
export const AppUserBody = Type.Object(
  {
    name: Type.Optional(NameField),
    quote: Type.Optional(Nullable(LongTextField)),
  },
  { examples: [{ name: 'Ada', quote: 'That brain of mine is something more than merely mortal.' }] },
);
export type AppUserInput = Static<typeof AppUserBody>;

export interface AppUserRow {
  id: number;
  name: string;
  quote: string | null;
}

/** The caller as the app user's owner (grant null), or as an accessor. */
export interface Seen {
  grant: { canWrite: boolean } | null;
}

export const OWNED: Seen = { grant: null };

export function toAppUser(ctx: AppContext, row: AppUserRow, seen: Seen): AppUser {
  return {
    id: row.id,
    url: appUserUrl(ctx, row.id),
    name: row.name,
    quote: row.quote,
    is_owned_by_current_user: seen.grant === null,
    permissions: { read: true, write: seen.grant === null || seen.grant.canWrite },
  };
}

export function toAppUserDetail(ctx: AppContext, row: AppUserRow, seen: Seen, profiles: Profile[]): AppUserDetail {
  return {
    ...toAppUser(ctx, row, seen),
    emergency_items_url: emergencyItemsUrl(ctx, row.id),
    emergency_contacts_url: emergencyContactsUrl(ctx, row.id),
    gallery_url: galleryUrl(ctx, row.id),
    profiles_url: profilesUrl(ctx, row.id),
    profiles,
  };
}
