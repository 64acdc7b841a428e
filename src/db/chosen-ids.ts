// A choice of ids stored beside a row (an accessor's profiles, an emergency link's items and
// contacts) as the queries read it: ascending, or null when nothing was chosen and every one counts.

/** Whether two choices, each ascending as the queries read them, are the same. */
export function sameChosen(a: readonly number[] | null, b: readonly number[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
