// The two logs an owner reads (docs/activity.md): an app user's activity (who read and changed
// what the owner keeps, links used, shares over their life, exports, operators' actions) and an
// account's security (sign-ins, lock-outs, sessions ended, password, second factor, passkeys,
// identities, addresses, operators' actions). Each event is written in the transaction of the
// change it describes, with `recordActivity` (or `recordSecurityEvent` for the account's log);
// a name is copied as it is then, so the event reads the same after a rename or a deletion.
import { sql, type Expression, type Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';

/** Who did it: the owner (or, in the security log, the account itself), an accessor, an emergency link, an operator. */
export type ActorKind = 'owner' | 'accessor' | 'emergency_link' | 'operator';

/** How it came: the API, the web client, the command line; null: the service itself. */
export type Via = 'api' | 'web' | 'cli';

/** How a request to the service came: the web client, or any other client of the API. */
export type RequestVia = Exclude<Via, 'cli'>;

/**
 * How a request came: `web` from a page this service serves (the web client, an emergency link's
 * page), which browsers mark `Sec-Fetch-Site: same-origin`; `api` from any other client (an app,
 * a script, another site's page). Like a user agent, it is what the client says: it informs the
 * owner, it decides nothing.
 */
export function viaOf(request: { headers: Record<string, string | string[] | undefined> }): RequestVia {
  return request.headers['sec-fetch-site'] === 'same-origin' ? 'web' : 'api';
}

export interface ActivityActor {
  kind: ActorKind;
  id: number | null;
  /** The name to show; for an account (owner or accessor) left out, its first and last name as they are now. */
  name?: string | null;
}

export interface ActivityObject {
  type: string;
  id: number | null;
  /** Its name then; an expression reads it in the statement that writes the event. */
  name: string | null | Expression<string>;
  /** The owner's change of an accessor or an emergency link: what it changed. */
  changes?: ActivityChanges;
}

export interface NewActivity {
  /** Whose log it is in: the account (the owner's, for an app user's log). */
  accountId: number;
  /** The app user whose log it is in; null: the account's security log. */
  appUserId: number | null;
  at: number;
  actor: ActivityActor | null;
  action: string;
  object?: ActivityObject | null;
  via: Via | null;
  /** A sign-in's session, as it was opened. */
  ipAddress?: string | null;
  userAgent?: string | null;
}

/** An account's first and last name, read in the statement that writes the event. */
export function accountName(accountId: number): Expression<string> {
  return sql<string>`(select trim(first_name || ' ' || last_name) from accounts where id = ${accountId})`;
}

function actorName(actor: ActivityActor | null): string | null | Expression<string> {
  if (!actor) return null;
  if (actor.name !== undefined) return actor.name;
  if ((actor.kind === 'owner' || actor.kind === 'accessor') && actor.id !== null) return accountName(actor.id);
  return null;
}

/** Writes one event, in `db`'s transaction when it is one: one statement. */
export async function recordActivity(db: Kysely<Database>, event: NewActivity): Promise<void> {
  await db
    .insertInto('activity_events')
    .values({
      account_id: event.accountId,
      app_user_id: event.appUserId,
      at: event.at,
      actor_kind: event.actor?.kind ?? null,
      actor_id: event.actor?.id ?? null,
      actor_name: actorName(event.actor),
      action: event.action,
      object_type: event.object?.type ?? null,
      object_id: event.object?.id ?? null,
      object_name: event.object?.name ?? null,
      via: event.via,
      ip_address: event.ipAddress ?? null,
      user_agent: event.userAgent ?? null,
      changes: event.object?.changes ? JSON.stringify(event.object.changes) : null,
    })
    .execute();
}

/** An accessor's write in its owner's log (docs/activity.md). */
export interface AccessorWriteEvent {
  /** The owner's account and app user: whose log it is in. */
  accountId: number;
  appUserId: number;
  at: number;
  /** The accessor's account. */
  readerId: number;
  action: string;
  type: string;
  /** The object's id; null: none (its name is then null too). */
  id: number | null;
  via: Via;
}

/** Where an object lies, read by the insert from the object's id: what holds it, its id and name (docs/activity.md). */
export interface ParentOf {
  id(objectId: number | null): Expression<number | null>;
  name(objectId: number | null): Expression<string | null>;
}

/**
 * The insert of an accessor's write to what `table` holds, the object's name read from its
 * `column` by the insert itself (as it is then), and what holds it when `parent` says how to
 * read it. Prepared, one per table: accessors' writes are as busy as owners', and building the
 * query each time cost more than running it.
 */
export function accessorWriteInsert(table: string, column: string, parent?: ParentOf) {
  return preparedQuery((db, p: AccessorWriteEvent) =>
    db.insertInto('activity_events').values({
      account_id: p.accountId,
      app_user_id: p.appUserId,
      at: p.at,
      actor_kind: sql<ActorKind>`'accessor'`,
      actor_id: p.readerId,
      actor_name: accountName(p.readerId),
      action: p.action,
      object_type: p.type,
      object_id: p.id,
      object_name: sql<string>`(select ${sql.ref(column)} from ${sql.table(table)} where id = ${p.id})`,
      via: p.via,
      ...(parent ? { parent_id: parent.id(p.id), parent_name: parent.name(p.id) } : {}),
    }),
  );
}

/** What a security event may say beyond its account and action. */
export interface SecurityEventDetails {
  /** Default: the account itself. null: the service (a sweep, a lock-out). */
  actor?: ActivityActor | null;
  object?: ActivityObject | null;
  ipAddress?: string | null;
  userAgent?: string | null;
}

/**
 * One line for whatever changes an account's security: `recordSecurityEvent(trx, accountId,
 * now, 'password_changed', via)`. The actor is the account itself unless `details.actor` says
 * otherwise.
 */
export function recordSecurityEvent(
  db: Kysely<Database>,
  accountId: number,
  at: number,
  action: string,
  via: Via | null,
  details: SecurityEventDetails = {},
): Promise<void> {
  return recordActivity(db, {
    accountId,
    appUserId: null,
    at,
    actor: details.actor === undefined ? { kind: 'owner', id: accountId } : details.actor,
    action,
    object: details.object ?? null,
    via,
    ipAddress: details.ipAddress ?? null,
    userAgent: details.userAgent ?? null,
  });
}

/** An operator's action on an account: in its security log, and in the log of its app user when it has one. */
export async function recordOperatorAction(db: Kysely<Database>, accountId: number, at: number, action: string, via: Via): Promise<void> {
  const actor: ActivityActor = { kind: 'operator', id: null, name: null };
  await recordSecurityEvent(db, accountId, at, action, via, { actor });
  const appUser = await db.selectFrom('app_users').select('id').where('account_id', '=', accountId).executeTakeFirst();
  if (appUser) await recordActivity(db, { accountId, appUserId: appUser.id, at, actor, action, via });
}

/** Events to a page. */
export const ACTIVITY_PAGE = 100;

const COLUMNS = [
  'id',
  'at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'action',
  'object_type',
  'object_id',
  'object_name',
  'via',
  'ip_address',
  'user_agent',
  'parent_id',
  'parent_name',
  'changes',
] as const;

/**
 * A log's events, newest first, below the id `before` when given: an app user's (`appUserId`),
 * or the account's security log (`appUserId` null). `limit` + 1 are read, so the caller knows
 * whether there is a next page.
 */
export function listActivity(
  db: Kysely<Database>,
  where: { accountId: number; appUserId: number | null; before?: number | undefined },
  limit: number,
) {
  let query = db.selectFrom('activity_events').select(COLUMNS).where('account_id', '=', where.accountId);
  query = where.appUserId === null ? query.where('app_user_id', 'is', null) : query.where('app_user_id', '=', where.appUserId);
  if (where.before !== undefined) query = query.where('id', '<', where.before);
  return query
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
}

/** Deletes the events older than `before` (ACTIVITY_RETENTION); returns how many. */
export async function deleteActivityBefore(db: Kysely<Database>, before: number): Promise<number> {
  const result = await db.deleteFrom('activity_events').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const Actor = Type.Object({
  kind: Type.Union([Type.Literal('owner'), Type.Literal('accessor'), Type.Literal('emergency_link'), Type.Literal('operator')]),
  id: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
});

const ActivityParentSchema = Type.Object(
  {
    type: Type.String({ examples: ['topic'] }),
    id: Type.Integer(),
    name: Type.Union([Type.String(), Type.Null()]),
  },
  { description: 'What holds the object (a topic’s profile, an item’s topic, a list entry’s item), named as it was then' },
);

const Count = (description: string) => Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description }));

const ActivityChangesSchema = Type.Object(
  {
    can_write: Type.Optional(Type.Boolean()),
    has_private_profile_access: Type.Optional(Type.Boolean()),
    expires_at: Type.Optional(
      Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'The new end date; null: none' }),
    ),
    profiles: Count('How many profiles the accessor is now limited to; null: every profile'),
    label: Type.Optional(Type.String({ description: "The link's new label" })),
    pin: Type.Optional(Type.Boolean({ description: 'true: a PIN set or changed; false: the PIN removed' })),
    emergency_items: Count('How many emergency items the link now shows; null: all of them'),
    emergency_contacts: Count('How many emergency contacts the link now shows; null: all of them'),
  },
  { description: 'What the owner changed of an accessor or an emergency link: each field changed, with its new value' },
);

export type ActivityChanges = Static<typeof ActivityChangesSchema>;

const ActivityObjectSchema = Type.Object({
  type: Type.String({ examples: ['item'] }),
  id: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  parent: Type.Optional(ActivityParentSchema),
  changes: Type.Optional(ActivityChangesSchema),
  ip_address: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: "A session signed in or ended, or an emergency link's view: its IP address" }),
  ),
  user_agent: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: "A session signed in or ended, or an emergency link's view: its User-Agent" }),
  ),
});

export const ActivityEventSchema = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({ format: 'date-time' }),
    actor: Type.Union([Actor, Type.Null()]),
    action: Type.String({ examples: ['created'] }),
    object: Type.Union([ActivityObjectSchema, Type.Null()]),
    via: Type.Union([Type.Literal('api'), Type.Literal('web'), Type.Literal('cli'), Type.Null()]),
  },
  { description: 'One event of a log (docs/activity.md)' },
);

export type ActivityEvent = Static<typeof ActivityEventSchema>;

export const ActivityPageSchema = Type.Object(
  {
    events: Type.Array(ActivityEventSchema),
    next: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
  },
  { description: 'A page of a log, newest first; `next`: the URL of the next (older) page, or null' },
);

type Listed = Awaited<ReturnType<typeof listActivity>>[number];

/** What holds an object of each type that an event names with its parent. */
const PARENT_TYPE: Readonly<Record<string, string | undefined>> = { topic: 'profile', item: 'topic', list_entry: 'item' };

/** The one mapper from a row to the event the API answers. */
export function toActivityEvent(row: Listed): ActivityEvent {
  let object: ActivityEvent['object'] = null;
  if (row.object_type !== null) {
    object = { type: row.object_type, id: row.object_id, name: row.object_name };
    const parentType = PARENT_TYPE[row.object_type];
    if (parentType && row.parent_id !== null) object.parent = { type: parentType, id: row.parent_id, name: row.parent_name };
    if (row.changes !== null) object.changes = JSON.parse(row.changes) as ActivityChanges;
    if (row.action === 'signed_in' || row.action === 'session_ended')
      object = { ...object, ip_address: row.ip_address, user_agent: row.user_agent };
  } else if (row.action === 'viewed' && row.actor_kind === 'emergency_link') {
    // What opened the link (the owner's page says "from a phone"), as its views list does.
    object = { type: 'emergency_link_view', id: null, name: null, ip_address: row.ip_address, user_agent: row.user_agent };
  }
  return {
    id: row.id,
    at: new Date(Number(row.at)).toISOString(),
    actor: row.actor_kind === null ? null : { kind: row.actor_kind as ActorKind, id: row.actor_id, name: row.actor_name },
    action: row.action,
    object,
    via: row.via as Via | null,
  };
}

/** `?before=` as the query schema let it through (digits only), as an id. */
export function beforeId(before: string | undefined): number | undefined {
  return before === undefined ? undefined : Number(before);
}

/** A page of a log: its events and the URL of the next (older) page, or null. */
export function activityPage(rows: Listed[], nextUrl: (before: number) => string): { events: ActivityEvent[]; next: string | null } {
  const more = rows.length > ACTIVITY_PAGE;
  const page = more ? rows.slice(0, ACTIVITY_PAGE) : rows;
  return { events: page.map(toActivityEvent), next: more ? nextUrl(page[page.length - 1]!.id) : null };
}
