// The account pages' own navigation.
import { useLocation } from 'preact-iso';

const PAGES = [
  ['/settings', 'Name and e-mail addresses'],
  ['/settings/password', 'Password'],
  ['/settings/sessions', 'Sessions'],
  ['/settings/mfa', 'Two-step sign-in'],
  ['/settings/passkeys', 'Passkeys'],
  ['/settings/identities', 'Sign-in providers'],
  ['/settings/activity', 'Security activity'],
  ['/settings/export-and-delete', 'Export or delete'],
] as const;

export function SettingsNav() {
  const { path } = useLocation();
  return (
    <nav aria-label="Account" class="subnav">
      {PAGES.map(([href, label]) => (
        <a key={href} href={href} aria-current={path === href ? 'page' : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}
