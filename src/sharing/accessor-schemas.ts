// Accessor (docs/sharing.md): {id, url, email, accepted, can_write, has_private_profile_access,
// expires_at, expired, profiles, created_at, app_user: {id, url, name}, user_with_access: {first_name,
// last_name} | null}.
import { Type, type Static } from 'typebox';
import { Nullable, Url } from '../app-data/kernel/field-schemas.ts';
import { appUserUrl } from '../app-data/urls.ts';
import { grantLive } from '../auth/grants.ts';
import type { AppContext } from '../context.ts';
import type { Flag } from '../db/schema.ts';

/** The address the request examples invite. */
export const EXAMPLE_INVITED_EMAIL = 'charles.babbage@example.com';

export const accessorUrl = (ctx: AppContext, id: number) => `${ctx.config.publicUrl}/app/accessors/${id}/`;

export const AccessorSchema = Type.Object({
  id: Type.Integer(),
  url: Url,
  email: Type.String({ description: 'The address invited, as the owner wrote it' }),
  accepted: Type.Boolean({ description: 'true once the person invited accepted; the accessor is then bound to their account' }),
  can_write: Type.Boolean({ description: 'May change the data, not only read it' }),
  has_private_profile_access: Type.Boolean({ description: 'Sees private profiles and what is under them' }),
  expires_at: Nullable(Type.String({ format: 'date-time', description: 'When the access ends; null: until revoked' })),
  expired: Type.Boolean({
    description: 'true once expires_at has passed: the accessor grants nothing until its owner sets a later expires_at or deletes it',
  }),
  profiles: Nullable(
    Type.Array(Type.Integer(), {
      description: 'The only profiles shared (ascending ids), with what is under them; null: every profile the other fields allow',
    }),
  ),
  created_at: Type.String({ format: 'date-time' }),
  app_user: Type.Object({ id: Type.Integer(), url: Url, name: Type.String() }, { description: 'The app user shared' }),
  user_with_access: Nullable(
    Type.Object({ first_name: Type.String(), last_name: Type.String() }, { description: 'The account that accepted; null until accepted' }),
  ),
});
export type Accessor = Static<typeof AccessorSchema>;

export const AccessorListSchema = Type.Array(AccessorSchema);

const Permissions = {
  can_write: Type.Optional(Type.Boolean({ description: 'May change the data, not only read it (default false)' })),
  has_private_profile_access: Type.Optional(Type.Boolean({ description: 'Sees private profiles (default false)' })),
  expires_at: Type.Optional(
    Nullable(
      Type.String({
        format: 'date-time',
        description: 'When the access ends: a future time; null (the default): until revoked. A later one re-grants an expired accessor',
      }),
    ),
  ),
  profiles: Type.Optional(
    Nullable(
      Type.Array(Type.Integer(), {
        maxItems: 1000,
        description:
          "Ids of this app user's profiles: the accessor sees (and, with can_write, changes) only those and what is under them, besides the app user's emergency data and gallery; null (the default): every profile",
      }),
    ),
  ),
};

export const AccessorCreateBody = Type.Object(
  {
    email: Type.String({
      format: 'email',
      maxLength: 254,
      description: 'Whom to invite: an address, with or without an account. Not one of your own, nor one already invited here.',
    }),
    ...Permissions,
  },
  { examples: [{ email: EXAMPLE_INVITED_EMAIL, can_write: false, has_private_profile_access: false }] },
);
export type AccessorInput = Static<typeof AccessorCreateBody>;

export const AccessorPatchBody = Type.Object(
  {
    ...Permissions,
    email: Type.Optional(Type.String({ description: 'Cannot be changed: invite the new address and delete this accessor instead.' })),
  },
  { examples: [{ can_write: true }] },
);
export type AccessorChanges = Static<typeof AccessorPatchBody>;

/** An accessor as the queries read it, with its app user's name and the accepting account's names. */
export interface AccessorRow {
  id: number;
  app_user_id: number;
  owner_account_id: number;
  email: string;
  user_with_access_id: number | null;
  can_write: Flag;
  has_private_profile_access: Flag;
  expires_at: number | null;
  /** The only profiles shared (ascending); null: all. */
  profiles: readonly number[] | null;
  created_at: number;
  app_user_name: string;
  with_first_name: string | null;
  with_last_name: string | null;
}

export function toAccessor(ctx: AppContext, row: AccessorRow): Accessor {
  return {
    id: row.id,
    url: accessorUrl(ctx, row.id),
    email: row.email,
    accepted: row.user_with_access_id !== null,
    can_write: row.can_write === 1,
    has_private_profile_access: row.has_private_profile_access === 1,
    expires_at: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
    expired: !grantLive(row.expires_at, ctx.clock.now()),
    profiles: row.profiles === null ? null : [...row.profiles],
    created_at: new Date(row.created_at).toISOString(),
    app_user: { id: row.app_user_id, url: appUserUrl(ctx, row.app_user_id), name: row.app_user_name },
    user_with_access:
      row.user_with_access_id === null ? null : { first_name: row.with_first_name ?? '', last_name: row.with_last_name ?? '' },
  };
}
