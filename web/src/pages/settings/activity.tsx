// /settings/activity: the account's security log, newest first (docs/activity.md).
import { api } from '../../api/client.ts';
import type { ActivityEvent } from '../../api/types.ts';
import { ActivityList, actorName, operatorSentence } from '../../components/activity-list.tsx';
import { Page } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { SettingsNav } from './settings-nav.tsx';

const METHODS: Record<string, string> = {
  password: 'your password',
  'password+totp': 'your password and a two-step code',
  passkey: 'a passkey',
  email_code: 'a code sent by e-mail',
};

/** "with Google", "with a passkey". */
function method(name: string): string {
  if (METHODS[name]) return METHODS[name];
  const [provider, second] = name.split('+');
  return `${provider} ${second ? 'and a two-step code' : ''}`.trim();
}

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(HeadlessChrome|Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** "Chrome on Linux" for a browser's User-Agent header; what is not recognised, as it is. */
export function deviceOf(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (!browser) return userAgent;
  return system ? `${browser} on ${system}` : browser;
}

const SENTENCES: Record<string, string> = {
  locked_out: 'Your account was locked for a while after wrong two-step codes.',
  sessions_ended: 'You signed out everywhere.',
  password_changed: 'You changed your password.',
  password_reset: 'Your password was reset with a link sent by e-mail.',
  second_factor_on: 'You turned on two-step sign-in.',
  second_factor_off: 'You turned off two-step sign-in.',
  recovery_code_used: 'A recovery code was used to sign in.',
  recovery_codes_renewed: 'You made new recovery codes.',
};

/** "You signed in with a passkey from Firefox on Windows (203.0.113.7)", "You added the address bo@example.com". */
export function securitySentence(event: ActivityEvent): string {
  const object = event.object;
  const name = object?.name ?? '';
  if (event.actor?.kind === 'operator') return operatorSentence(event);
  switch (event.action) {
    case 'signed_in': {
      const where = [object?.user_agent && deviceOf(object.user_agent), object?.ip_address && `(${object.ip_address})`]
        .filter(Boolean)
        .join(' ');
      return `You signed in with ${method(name)}${where ? ` from ${where}` : ''}.`;
    }
    case 'session_ended':
      return 'A session was ended.';
    case 'passkey_added':
      return `You added the passkey '${name}'.`;
    case 'passkey_removed':
      return `You removed the passkey '${name}'.`;
    case 'identity_added':
      return `You linked your ${name} account for signing in.`;
    case 'identity_removed':
      return `You unlinked your ${name} account.`;
    case 'address_added':
      return `You added the address ${name}.`;
    case 'address_verified':
      return `The address ${name} was verified.`;
    case 'address_made_primary':
      return `You made ${name} your primary address.`;
    case 'address_deleted':
      return `You deleted the address ${name}.`;
  }
  return SENTENCES[event.action] ?? `${actorName(event)}: ${event.action}.`;
}

export const SecurityActivity = signedIn(function SecurityActivity() {
  return (
    <Page title="Security activity">
      <SettingsNav />
      <p>Sign-ins and changes to how your account is protected, newest first.</p>
      <ActivityList
        caption="Your account's security activity"
        sentence={securitySentence}
        load={(before) => api.GET('/account/activity/', { params: { query: { before } } })}
      />
    </Page>
  );
});
