// App user (contract §5): {id, url, name, quote}; the detail adds the URLs of what it holds
// and its profiles (list shape).
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import { LongTextField, NameField, Nullable, Url } from './field-schemas.ts';
import { ProfileSchema, type Profile } from './profile-schemas.ts';
import { appUserUrl, emergencyContactsUrl, emergencyItemsUrl, galleryUrl, profilesUrl } from './urls.ts';

export const AppUserSchema = Type.Object({
  id: Type.Integer(),
  url: Url,
  name: Type.String(),
  quote: Nullable(Type.String()),
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

export function toAppUser(ctx: AppContext, row: AppUserRow): AppUser {
  return { id: row.id, url: appUserUrl(ctx, row.id), name: row.name, quote: row.quote };
}

export function toAppUserDetail(ctx: AppContext, row: AppUserRow, profiles: Profile[]): AppUserDetail {
  return {
    ...toAppUser(ctx, row),
    emergency_items_url: emergencyItemsUrl(ctx, row.id),
    emergency_contacts_url: emergencyContactsUrl(ctx, row.id),
    gallery_url: galleryUrl(ctx, row.id),
    profiles_url: profilesUrl(ctx, row.id),
    profiles,
  };
}
