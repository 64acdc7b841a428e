// GET /app/users/{id}/changes/ (docs/offline-and-live.md).
import { Type, type Static } from 'typebox';
import { SYNCED_TYPES } from '../db/synced-types.ts';

export const ChangesQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        description:
          'A cursor this endpoint (or an event id of the live stream) gave for this app user, as is; without it, the answer is the current cursor and no changes',
      }),
    ),
  },
  // Other parameters are ignored, as on every route: a junk id is then 404 before anything else.
);
export type ChangesQuery = Static<typeof ChangesQuery>;

export const ChangeSchema = Type.Object({
  type: Type.Union(
    SYNCED_TYPES.map((type) => Type.Literal(type)),
    { description: 'The resource' },
  ),
  id: Type.Integer(),
  op: Type.Union([Type.Literal('upsert'), Type.Literal('delete')]),
  data: Type.Optional(
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          "An upsert's object as its GET reads it, without what it embeds (profiles, topics, items, a list's entries: those are changes of their own), plus `parent` {type, id}: what holds it (none for the app user)",
      },
    ),
  ),
});

export const ChangesPageSchema = Type.Object({
  cursor: Type.String({
    description:
      'Where the next request starts (`since`). Opaque: valid only for this app user and the access it was read with; it reveals nothing of the position and no two are alike',
    examples: ['v1.5d3e4b2a.nL3p0Qd7wKf2y8Zr.c3Ag2D9Xv0JmQ1s6T5eR7uWk4hYbN8iP2oLz3aF9gHq'],
  }),
  changes: Type.Array(ChangeSchema, { description: 'In commit order, at most 500; each object once, as it is now' }),
  has_more: Type.Boolean({ description: 'More changes follow: ask again with `cursor`' }),
});
