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
// altered.
import type { Access } from '../app-data/kernel/access.ts';
import type { SecretBox } from '../auth/secret-box.ts';

export interface Cursor {
  appUserId: number;
  view: string;
  changeId: number;
}

/** o: the owner; r or w: an accessor reading or writing, with p when they see private profiles. */
export function viewOf(access: Access): string {
  if (!access.grant) return 'o';
  return `${access.grant.canWrite ? 'w' : 'r'}${access.seesPrivate ? 'p' : ''}`;
}

const POSITION_DIGITS = 16;
const POSITION = new RegExp(`^\\d{${POSITION_DIGITS}}$`);
/** What SecretBox.seal gives for a position: anything else is refused before any work. */
const SEALED = /^v1\.[0-9a-f]{8}\.[\w-]{16}\.[\w-]{43}$/;

const contextOf = (appUserId: number, view: string) => `change-cursor.${appUserId}.${view}`;

export function sealCursor(box: SecretBox, cursor: Cursor): string {
  return box.seal(String(cursor.changeId).padStart(POSITION_DIGITS, '0'), contextOf(cursor.appUserId, cursor.view));
}

/** The change id `text` holds, or undefined unless this service sealed it for this app user and view. */
export function openCursor(box: SecretBox, text: string, appUserId: number, view: string): number | undefined {
  if (!SEALED.test(text)) return undefined;
  let position: string;
  try {
    position = box.open(text, contextOf(appUserId, view));
  } catch {
    return undefined;
  }
  return POSITION.test(position) ? Number(position) : undefined;
}
