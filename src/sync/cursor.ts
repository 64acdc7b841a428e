// A changes cursor (docs/offline-and-live.md): the id of the last change a client has, and the view it was
// read with. What an accessor is sent depends on their access (private profiles, write
// permission shown in the app user): a cursor taken under another view no longer fits the
// client's copy, so it is refused (410) and the client reads everything again.
import type { Access } from '../app-data/access.ts';

export interface Cursor {
  changeId: number;
  view: string;
}

/** o: the owner; r or w: an accessor reading or writing, with p when they see private profiles. */
export function viewOf(access: Access): string {
  if (!access.grant) return 'o';
  return `${access.grant.canWrite ? 'w' : 'r'}${access.seesPrivate ? 'p' : ''}`;
}

export const formatCursor = (cursor: Cursor): string => `${cursor.changeId}.${cursor.view}`;

/** The cursor `text` names, or undefined when it is not one this service gives. */
export function parseCursor(text: string): Cursor | undefined {
  const match = /^(\d{1,15})\.(o|rp?|wp?)$/.exec(text);
  if (!match) return undefined;
  return { changeId: Number(match[1]), view: match[2]! };
}
