// The account pages' own navigation.
import { useLocation } from 'preact-iso';
import { type MessageKey, t } from '../../i18n/language.ts';

const PAGES = [
  ['/settings', 'settingsNav.account'],
  ['/settings/password', 'settingsNav.password'],
  ['/settings/sessions', 'settingsNav.sessions'],
  ['/settings/mfa', 'settingsNav.mfa'],
  ['/settings/passkeys', 'settingsNav.passkeys'],
  ['/settings/identities', 'settingsNav.identities'],
  ['/settings/activity', 'settingsNav.activity'],
  ['/settings/export-and-delete', 'settingsNav.exportAndDelete'],
] as const satisfies readonly (readonly [string, MessageKey])[];

export function SettingsNav() {
  const { path } = useLocation();
  return (
    <nav aria-label={t('nav.account')} class="subnav">
      {PAGES.map(([href, label]) => (
        <a key={href} href={href} aria-current={path === href ? 'page' : undefined}>
          {t(label)}
        </a>
      ))}
    </nav>
  );
}
