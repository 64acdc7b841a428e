// /settings/activity: the account's security log, newest first (docs/activity.md).
import { api } from '../../api/client.ts';
import type { ActivityEvent } from '../../api/types.ts';
import { ActivityList } from '../../components/activity-list.tsx';
import { Page } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { type MessageKey, t } from '../../i18n/language.ts';
import { SettingsNav } from './settings-nav.tsx';
import { deviceOf } from '../../device.ts';

/** How one signed in, as the words after "with": a provider's name as it is. */
function method(name: string): string {
  switch (name) {
    case 'password':
      return t('activity.method.password');
    case 'password+totp':
      return t('activity.method.passwordTotp');
    case 'passkey':
      return t('activity.method.passkey');
    case 'email_code':
      return t('activity.method.emailCode');
  }
  const [provider = name, second] = name.split('+');
  return second ? t('activity.method.providerTotp', { provider }) : provider;
}

/** The sentence of an event whose object needs no words of its own. */
const SENTENCES: Record<string, MessageKey> = {
  session_ended: 'activity.sessionEnded',
  locked_out: 'activity.lockedOut',
  sessions_ended: 'activity.sessionsEnded',
  password_changed: 'activity.passwordChanged',
  password_reset: 'activity.passwordReset',
  second_factor_on: 'activity.secondFactorOn',
  second_factor_off: 'activity.secondFactorOff',
  recovery_code_used: 'activity.recoveryCodeUsed',
  recovery_codes_renewed: 'activity.recoveryCodesRenewed',
};

/** What the service's operators did to the account, one whole sentence each. */
const OPERATOR_SENTENCES: Record<string, MessageKey> = {
  disabled: 'activity.operator.disabled',
  enabled: 'activity.operator.enabled',
  second_factor_off: 'activity.operator.secondFactorOff',
  verification_resent: 'activity.operator.verificationResent',
  sessions_ended: 'activity.operator.sessionsEnded',
  operator_granted: 'activity.operator.granted',
  operator_revoked: 'activity.operator.revoked',
};

/** The sentence of an event with a name in it ('Laptop', Google, bo@example.com). */
const NAMED: Record<string, MessageKey> = {
  passkey_added: 'activity.passkeyAdded',
  passkey_removed: 'activity.passkeyRemoved',
  identity_added: 'activity.identityAdded',
  identity_removed: 'activity.identityRemoved',
  address_added: 'activity.addressAdded',
  address_verified: 'activity.addressVerified',
  address_made_primary: 'activity.addressMadePrimary',
  address_deleted: 'activity.addressDeleted',
};

/** "You signed in with a passkey from Firefox on Windows (203.0.113.7)", "You added the address bo@example.com." */
export function securitySentence(event: ActivityEvent): string {
  const object = event.object;
  const name = object?.name ?? '';
  if (event.actor?.kind === 'operator') {
    const key = OPERATOR_SENTENCES[event.action];
    return key ? t(key) : t('activity.operator.other', { action: event.action });
  }
  // "Firefox on Windows (203.0.113.7)": where a session was opened.
  const where = [object?.user_agent && deviceOf(object.user_agent), object?.ip_address && `(${object.ip_address})`]
    .filter(Boolean)
    .join(' ');
  if (event.action === 'signed_in')
    return where ? t('activity.signedInFrom', { method: method(name), where }) : t('activity.signedIn', { method: method(name) });
  if (event.action === 'session_ended' && where) return t('activity.sessionEndedOn', { where });
  const named = NAMED[event.action];
  if (named) return t(named, { name });
  const key = SENTENCES[event.action];
  return key ? t(key) : t('activity.other', { action: event.action });
}

export const SecurityActivity = signedIn(function SecurityActivity() {
  return (
    <Page title={t('settingsNav.activity')}>
      <SettingsNav />
      <p>{t('activity.intro')}</p>
      <ActivityList
        caption={t('activity.caption')}
        sentence={securitySentence}
        load={(before) => api.GET('/account/activity/', { params: { query: { before } } })}
      />
    </Page>
  );
});
