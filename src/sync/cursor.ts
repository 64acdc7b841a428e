// A changes cursor: the id of the last change a client has, sealed (AES-256-GCM, with the
// `change-cursor` key every instance reads from the database) to the app user and the view it
// was read with. Change ids are numbered across the whole service, so a readable one would
// tell an accessor where the owner wrote to profiles they may not see, and anyone the
// service's write rate: the client gets a token it can neither read nor alter, and the position
// is padded to a fixed width so even the token's length says nothing.
//
// What an accessor is sent depends on their access (private profiles, write permission shown in
// the app user): a cursor taken under another view no longer fits the client's copy, so it is
// refused (410) and the client reads everything again; so is one for another app user, or one
// altered. An accessor limited to some profiles has their list sealed in the cursor too: when
// the list has since lost profiles, the next page begins with their deletions (change-service.ts);
// when it has gained some, the cursor is refused, for the client lacks them.
import type { Access } from '../app-data/kernel/access.ts';
import type { SecretBox } from '../auth/secret-box.ts';

export interface Cursor {
  appUserId: number;
  view: string;
  changeId: number;
  /** The only profiles the view showed (Access.profiles); null: all of them. */
  profiles: readonly number[] | null;
}

/** What a cursor opens to. */
export type Position = Pick<Cursor, 'changeId' | 'profiles'>;

/** o: the owner; r or w: an accessor reading or writing, with p when they see private profiles. */
export function viewOf(access: Access): string {
  if (!access.grant) return 'o';
  return `${access.grant.canWrite ? 'w' : 'r'}${access.seesPrivate ? 'p' : ''}`;
}

const POSITION_DIGITS = 16;
/** The position, then `:` and the profiles' ids joined by `.` when the view showed only those. */
const POSITION = new RegExp(`^(\\d{${POSITION_DIGITS}})(?::((?:\\d+(?:\\.\\d+)*)?))?$`);
/** What SecretBox.seal gives for a position (with up to 1,000 profiles): anything else is refused before any work. */
const SEALED = /^v1\.[0-9a-f]{8}\.[\w-]{16}\.[\w-]{43,22000}$/;

const contextOf = (appUserId: number, view: string) => `change-cursor.${appUserId}.${view}`;

export function sealCursor(box: SecretBox, cursor: Cursor): string {
  const position = String(cursor.changeId).padStart(POSITION_DIGITS, '0');
  const profiles = cursor.profiles === null ? '' : `:${cursor.profiles.join('.')}`;
  return box.seal(position + profiles, contextOf(cursor.appUserId, cursor.view));
}

/** The position `text` holds, or undefined unless this service sealed it for this app user and view. */
export function openCursor(box: SecretBox, text: string, appUserId: number, view: string): Position | undefined {
  if (!SEALED.test(text)) return undefined;
  let opened: string;
  try {
    opened = box.open(text, contextOf(appUserId, view));
  } catch {
    return undefined;
  }
  const match = POSITION.exec(opened);
  if (!match) return undefined;
  const [, changeId, profiles] = match;
  return {
    changeId: Number(changeId),
    profiles: profiles === undefined ? null : profiles === '' ? [] : profiles.split('.').map(Number),
  };
}
