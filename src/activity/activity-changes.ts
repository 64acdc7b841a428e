// What an owner's change of an accessor or an emergency link changed, for its event's `changes`
// (docs/activity.md): each field whose value differs, with the new value, as the API writes it.
import type { ActivityChanges } from './activity-events.ts';

/** A list of chosen ids as a change reads it: how many (null: not chosen, every one). */
export const countOf = (list: readonly number[] | null): number | null => (list === null ? null : list.length);

/** An end date as a change reads it (ms since the epoch; null: none). */
export const endOf = (at: number | null): string | null => (at === null ? null : new Date(at).toISOString());

/** `changes`, or undefined when nothing in it changed (the event then says only that it changed). */
export const changedAny = (changes: ActivityChanges): ActivityChanges | undefined =>
  Object.keys(changes).length > 0 ? changes : undefined;
