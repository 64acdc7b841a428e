import { notFound } from '../errors.ts';

const MAX_ID = 2_147_483_647; // PostgreSQL integer

/** Whether an integer can be an id at all (a row's id fits PostgreSQL's integer). */
export function isStorableId(id: number): boolean {
  return Number.isInteger(id) && id >= 1 && id <= MAX_ID;
}

/** Ids in paths are positive integers; anything else is 404 (docs/api-conventions.md). */
export function parseId(raw: string | undefined): number {
  if (raw === undefined || !/^[1-9]\d{0,9}$/.test(raw)) throw notFound();
  const id = Number(raw);
  if (id > MAX_ID) throw notFound();
  return id;
}
