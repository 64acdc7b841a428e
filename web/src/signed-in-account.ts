// The signed-in account's own profile, asked for once per session token: the menu shows the
// operators' console to an operator (components/layout.tsx), and a browser where no language
// was chosen takes the account's at sign-in (i18n/switcher.tsx). The account settings page
// reads it afresh, since it changes it.
import { api } from './api/client.ts';

const fetchProfile = () =>
  api.GET('/account/profile/').then(
    ({ data }) => data,
    () => undefined,
  );

type AccountProfile = NonNullable<Awaited<ReturnType<typeof fetchProfile>>>;

let asked: { token: string; profile: Promise<AccountProfile | undefined> } | null = null;

/** The profile of the account `token` signs in (undefined: it could not be read). */
export function signedInAccount(token: string): Promise<AccountProfile | undefined> {
  if (asked?.token !== token) asked = { token, profile: fetchProfile() };
  return asked.profile;
}
