// The operators' console's own navigation: its views, all on the one page /admin.
import { useRoute } from 'preact-iso';

const VIEWS = [
  ['/admin', 'Accounts', undefined],
  ['/admin?view=outbox', 'Outbox', 'outbox'],
  ['/admin?view=webhooks', 'Webhooks', 'webhooks'],
  ['/admin?view=audit', 'Audit', 'audit'],
] as const;

export function AdminNav() {
  const { query } = useRoute();
  return (
    <nav aria-label="Operators" class="subnav">
      {VIEWS.map(([href, label, view]) => (
        <a key={href} href={href} aria-current={query.view === view && !query.account && !query.webhook ? 'page' : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}

export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}
