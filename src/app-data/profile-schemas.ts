// Profile (docs/app-data.md, docs/sharing.md): list shape {id, url, name, is_default, is_private}; the detail adds
// topics in full.
import { Type, type Static } from 'typebox';
import type { AppContext } from '../context.ts';
import type { Flag } from '../db/schema.ts';
import { NameField, Url } from './kernel/field-schemas.ts';
import { TopicSchema, type Topic } from './topic-schemas.ts';
import { profileUrl, topicsUrl } from './urls.ts';

export const ProfileSchema = Type.Object({
  id: Type.Integer(),
  url: Url,
  name: Type.String(),
  is_default: Type.Boolean(),
  is_private: Type.Boolean({ description: 'Hidden, with everything under it, from accessors without private profile access' }),
});
export type Profile = Static<typeof ProfileSchema>;

export const ProfileDetailSchema = Type.Object({
  ...ProfileSchema.properties,
  topics_url: Url,
  topics: Type.Array(TopicSchema),
});
export type ProfileDetail = Static<typeof ProfileDetailSchema>;

export const ProfileBody = Type.Object(
  {
    name: NameField,
    is_default: Type.Optional(Type.Boolean({ description: 'Making a profile the default clears the flag on the others' })),
    is_private: Type.Optional(Type.Boolean({ description: 'Only the owner may set it (default false); an accessor changing it gets 403' })),
  },
  { examples: [{ name: 'Personal', is_default: true, is_private: false }] },
);
export const ProfilePatchBody = Type.Partial(ProfileBody, { examples: [{ name: 'Family' }] });
export type ProfileChanges = Static<typeof ProfilePatchBody>;

export interface ProfileRow {
  id: number;
  name: string;
  is_default: Flag;
  is_private: Flag;
}

export function toProfile(ctx: AppContext, row: ProfileRow): Profile {
  return { id: row.id, url: profileUrl(ctx, row.id), name: row.name, is_default: row.is_default === 1, is_private: row.is_private === 1 };
}

export function toProfileDetail(ctx: AppContext, row: ProfileRow, topics: Topic[]): ProfileDetail {
  return { ...toProfile(ctx, row), topics_url: topicsUrl(ctx, row.id), topics };
}
