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
import { t } from '../../i18n/language.ts';
import { Rich } from '../../components/rich-text.tsx';

/**
 * Refused an operator without a second factor (the API's sentence is in the reader's language,
 * so it is not read here): the ways to get one, when the account has neither TOTP nor a passkey.
 */
function SecondFactorLinks() {
  const mfa = useLoad(() => api.GET('/account/mfa/'));
  const passkeys = useLoad(() => api.GET('/account/passkeys/'));
  if (!mfa.data || !passkeys.data || mfa.data.totp_enabled || passkeys.data.length > 0) return null;
  return (
    <p>
      <Rich
        k="admin.secondFactor"
        parts={{
          mfa: <a href="/settings/mfa">{t('admin.secondFactor.mfa')}</a>,
          passkey: <a href="/settings/passkeys">{t('admin.secondFactor.passkey')}</a>,
        }}
      />
    </p>
  );
}

export const Admin = signedIn(function Admin() {
  const { query } = useRoute();
  // The audit is the lightest answer that tells whether the caller may use the console.
  const allowed = useLoad(() => api.GET('/admin/audit/', { params: { query: { limit: '1' } } }));
  if (allowed.notFound) {
    return (
      <Page title={t('admin.title')}>
        <p>{t('admin.notOperator')}</p>
      </Page>
    );
  }
  if (allowed.problems) {
    return (
      <Page title={t('admin.title')}>
        <div role="alert" class="alert">
          {allowed.problems.general.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
        <SecondFactorLinks />
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
