// What the pages of an app user show of whose it is: a note on someone else's (shared with the
// caller, docs/sharing.md) saying what the caller may do with it, and the link back to its start.
import type { AppUser } from '../api/types.ts';
import { t } from '../i18n/language.ts';

export function SharedNote({ user }: { user: AppUser }) {
  if (user.is_owned_by_current_user) return null;
  return (
    <p class="note">
      {user.permissions.write ? t('data.sharedNote.write', { name: user.name }) : t('data.sharedNote.read', { name: user.name })}
    </p>
  );
}

/** The link to the app user's start page: "Your data", or the name of the one shared. */
export function BackLink({ user, base }: { user: AppUser | null | undefined; base: string }) {
  return (
    <p>
      <a href={base}>← {user && !user.is_owned_by_current_user ? user.name : t('data.yourData')}</a>
    </p>
  );
}
