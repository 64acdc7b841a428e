// /admin: the operators' console (docs/operators.md, docs/operators.md). One page, its view chosen
// by the query — ?account=<id>, ?view=outbox, ?view=audit, ?view=webhooks, ?webhook=<id>, else
// finding accounts (?email=) —
// since every path under /admin/ is the API's. The API answers 404 to anyone but an operator
// and 403 to one without a second factor or not signed in with it; the page says so in words.
import { useRoute } from 'preact-iso';
import { api } from '../../api/client.ts';
import { Page } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useLoad } from '../../hooks/use-load.ts';
import { AdminAccount } from './admin-account.tsx';
import { AdminAudit, AdminOutbox } from './admin-lists.tsx';
import { AdminWebhook, AdminWebhooks } from './admin-webhooks.tsx';
import { FindAccounts } from './find-accounts.tsx';

export const Admin = signedIn(function Admin() {
  const { query } = useRoute();
  // The audit is the lightest answer that tells whether the caller may use the console.
  const allowed = useLoad(() => api.GET('/admin/audit/', { params: { query: { limit: '1' } } }));
  if (allowed.notFound) {
    return (
      <Page title="Operators">
        <p>This page is for the people who run this service. Your account is not an operator's.</p>
      </Page>
    );
  }
  if (allowed.problems) {
    return (
      <Page title="Operators">
        <div role="alert" class="alert">
          {allowed.problems.general.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
        {allowed.problems.general.length > 0 && allowed.problems.general[0]?.includes('second factor') && (
          <p>
            <a href="/settings/mfa">Turn on two-step sign-in</a> or <a href="/settings/passkeys">add a passkey</a>.
          </p>
        )}
      </Page>
    );
  }
  if (!allowed.data) return null;
  const account = Number(query.account);
  if (Number.isInteger(account) && account > 0) return <AdminAccount id={account} />;
  if (query.view === 'outbox') return <AdminOutbox />;
  if (query.view === 'audit') return <AdminAudit />;
  const webhook = Number(query.webhook);
  if (Number.isInteger(webhook) && webhook > 0) return <AdminWebhook id={webhook} />;
  if (query.view === 'webhooks') return <AdminWebhooks />;
  return <FindAccounts />;
});
