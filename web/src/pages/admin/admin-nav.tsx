// The operators' console's own navigation: its views, all on the one page /admin.
import { useRoute } from 'preact-iso';
import { formatDateTime, type MessageKey, t } from '../../i18n/language.ts';

const VIEWS: [string, MessageKey, string | undefined][] = [
  ['/admin', 'admin.nav.accounts', undefined],
  ['/admin?view=outbox', 'admin.nav.outbox', 'outbox'],
  ['/admin?view=webhooks', 'admin.nav.webhooks', 'webhooks'],
  ['/admin?view=audit', 'admin.nav.audit', 'audit'],
];

export function AdminNav() {
  const { query } = useRoute();
  return (
    <nav aria-label={t('admin.title')} class="subnav">
      {VIEWS.map(([href, label, view]) => (
        <a key={href} href={href} aria-current={query.view === view && !query.account && !query.webhook ? 'page' : undefined}>
          {t(label)}
        </a>
      ))}
    </nav>
  );
}

export function when(iso: string | null | undefined): string {
  return iso ? formatDateTime(iso) : '—';
}
