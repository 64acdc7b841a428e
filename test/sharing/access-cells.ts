// The shape of the access table (access-table.test.ts): a row is one endpoint (method × path),
// a cell is that row asked by one caller. A row says what each caller must get, and how to
// make what a cell needs: the shared tree for reads, fresh objects for every write (a cell
// that changes something must not change what another cell sees).
import assert from 'node:assert/strict';
import type { Owner } from '../app-data/fixtures.ts';
import type { TestServer } from '../helpers/server.ts';
import type { Callers, Role, Shares, Tree, Where } from './sharing-fixtures.ts';

/** What a caller must get: a status, or a 403 with the reason its sentence gives. */
export type Outcome = 200 | 201 | 204 | 400 | 401 | 404 | 'read-only' | 'owner-only';

/** null: no such cell (the caller was never handed what the row asks about). */
export type Expectations = Record<Role, Outcome | null>;

export interface World {
  server: TestServer;
  callers: Callers;
  tree: Tree;
  shares: Shares;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
  bytes: Buffer;
}

/** What one cell runs in, for a row's checks. */
export interface Cell {
  world: World;
  role: Role;
  /** The owner of the data the cell is about (a fresh one for the app user's deletion). */
  owner: Owner;
  /** "METHOD path as caller", for every assertion's message. */
  label: string;
}

export interface Prepared {
  path: string;
  body?: unknown;
  form?: FormData;
  /** Sent without a token whoever the caller is (a signed file URL is its own credential). */
  withoutToken?: boolean;
  /** The owner whose data this is, when not the world's owner. */
  owner?: Owner;
  /** What the request would change, read by the owner: a refused request must leave it as it was. */
  witness?: string;
  /** What an allowed answer must hold. */
  check?: (answer: Answer, cell: Cell) => void | Promise<void>;
}

export interface Row {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The path with its ids named, e.g. `/app/topics/{private topic}/`. */
  path: string;
  expect: Expectations;
  prepare: (world: World, role: Role) => Promise<Prepared>;
}

export const statusOf = (outcome: Outcome): number => (typeof outcome === 'number' ? outcome : 403);

const OUTSIDERS = { pending: 404, revoked: 404, stranger: 404, anonymous: 401 } as const;

/** Every accessor reads; a private profile and what is under it are 404 without private access. */
export function reads(where: Where = 'public'): Expectations {
  return { owner: 200, writer: 200, reader: 200, readerNoPrivate: where === 'private' ? 404 : 200, ...OUTSIDERS };
}

/** The owner and a writer change; a reader gets 403 on what they see. */
export function writes(ok: 200 | 201 | 204, where: Where = 'public'): Expectations {
  return { owner: ok, writer: ok, reader: 'read-only', readerNoPrivate: where === 'private' ? 404 : 'read-only', ...OUTSIDERS };
}

/** Only the owner; every accessor gets 403. */
export function ownerOnly(ok: 200 | 201 | 204): Expectations {
  return { owner: ok, writer: 'owner-only', reader: 'owner-only', readerNoPrivate: 'owner-only', ...OUTSIDERS };
}

/** A profile's is_private: a writer may not change it; a reader may write nothing at all. */
export function privacyChange(ok: 200 | 201, where: Where = 'public'): Expectations {
  return { ...writes(ok, where), writer: 'owner-only' };
}

export const ids = (list: Array<{ id: number }>): number[] => list.map((object) => object.id);

/** An object the owner creates for one cell; its body. */
export async function ownerCreates(world: World, path: string, body: unknown): Promise<any> {
  const response = await world.server.request('POST', path, { token: world.tree.owner.token, body });
  assert.equal(response.status, 201, `fixture POST ${path}: ${response.status} ${response.text}`);
  return response.body;
}

/** A file URL is signed for whoever it is handed to: the owner's carries no accessor, an accessor's carries theirs. */
export function assertFileFor(cell: Cell, url: string): void {
  if (cell.role === 'owner') {
    assert.doesNotMatch(url, /[?&]accessor=/, `${cell.label}: the owner's file URL names no accessor`);
    return;
  }
  const accessorId = cell.world.shares.accessorIds[cell.role];
  assert.ok(accessorId, `${cell.label}: the caller has no accessor`);
  assert.match(url, new RegExp(`[?&]accessor=${accessorId}&`), `${cell.label}: the file URL is signed for the caller's access`);
}

/** A create's answer: 201 with Location its url, and the owner finds it (a writer writes into the owner's data). */
export async function assertCreated(answer: Answer, cell: Cell): Promise<void> {
  assert.equal(typeof answer.body.id, 'number', `${cell.label}: the new object's id`);
  assert.equal(answer.headers.get('location'), answer.body.url, `${cell.label}: Location is the new object's url`);
  const path = new URL(answer.body.url).pathname;
  const seen = await cell.world.server.request('GET', path, { token: cell.owner.token });
  assert.equal(seen.status, 200, `${cell.label}: the owner reads the new object at ${path}`);
  assert.equal(seen.body.id, answer.body.id, `${cell.label}: the owner reads the new object`);
}

/** A DELETE's answer: gone for the owner too. */
export function assertGone(path: string): (answer: Answer, cell: Cell) => Promise<void> {
  return async (_answer, cell) => {
    const seen = await cell.world.server.request('GET', path, { token: cell.owner.token });
    assert.equal(seen.status, 404, `${cell.label}: ${path} is gone for the owner`);
  };
}
