// One account in the console: its standing (never its personal data) and the operators'
// actions, each confirmed and with a reason for the audit; deleting it has its own form.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { Check, Field, Form, Submit, text } from '../../components/form.tsx';
import { Loading, Page, Status } from '../../components/page.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { DeleteAccount } from './admin-account-delete.tsx';
import { AdminNav, when } from './admin-nav.tsx';
import { type MessageKey, t } from '../../i18n/language.ts';

type ActionName = 'disable' | 'enable' | 'mfa-off' | 'resend-verification' | 'sessions-end';

const DONE: Record<ActionName, MessageKey> = {
  disable: 'admin.account.done.disable',
  enable: 'admin.account.done.enable',
  'mfa-off': 'admin.account.done.mfaOff',
  'resend-verification': 'admin.account.done.resendVerification',
  'sessions-end': 'admin.account.done.sessionsEnd',
};

export function AdminAccount({ id }: { id: number }) {
  const account = useLoad(() => api.GET('/admin/accounts/{id}/', { params: { path: { id } } }), id);
  const action = useAction();
  const status = useStatusLine();
  const [deleted, setDeleted] = useState(false);

  async function act(data: FormData, form: HTMLFormElement) {
    const name = text(data, 'action') as ActionName;
    if (data.get('confirmed') !== 'on') {
      action.fail(t('admin.account.tickFirst', { label: t('admin.account.checked') }));
      return;
    }
    const reason = text(data, 'reason').trim();
    const body = reason ? { reason } : {};
    const params = { params: { path: { id } }, body };
    const done =
      name === 'disable'
        ? await action.run(() => api.POST('/admin/accounts/{id}/disable/', params))
        : name === 'enable'
          ? await action.run(() => api.POST('/admin/accounts/{id}/enable/', params))
          : name === 'mfa-off'
            ? await action.run(() => api.POST('/admin/accounts/{id}/mfa-off/', params))
            : name === 'resend-verification'
              ? await action.run(() => api.POST('/admin/accounts/{id}/resend-verification/', params))
              : await action.run(() => api.POST('/admin/accounts/{id}/sessions-end/', params));
    if (!done) return;
    status.say(t(DONE[name]));
    form.reset();
    account.reload();
  }

  if (deleted) {
    return (
      <Page title={t('admin.account.deletedTitle')}>
        <AdminNav />
        <Status />
        <p>
          <a href="/admin">{t('admin.account.findAnother')}</a>
        </p>
      </Page>
    );
  }
  if (account.notFound) {
    return (
      <Page title={t('admin.account.noSuch')}>
        <AdminNav />
        <p>{t('admin.account.noSuchExplain')}</p>
      </Page>
    );
  }
  const shown = account.data;
  if (!shown) return <Loading />;
  return (
    <Page title={shown.email}>
      <AdminNav />
      <Status />
      <dl class="facts">
        <dt>{t('admin.status')}</dt>
        <dd>{shown.disabled ? t('admin.disabled') : t('admin.active')}</dd>
        <dt>{t('admin.account.name')}</dt>
        <dd>{`${shown.first_name} ${shown.last_name}`.trim() || '—'}</dd>
        <dt>{t('admin.created')}</dt>
        <dd>{when(shown.created_at)}</dd>
        <dt>{t('admin.lastSignIn')}</dt>
        <dd>{when(shown.last_sign_in_at)}</dd>
        <dt>{t('admin.sessions')}</dt>
        <dd>{shown.sessions}</dd>
        <dt>{t('admin.secondFactorFact')}</dt>
        <dd>{shown.second_factor ? t('admin.on') : t('admin.off')}</dd>
        <dt>{t('admin.account.operator')}</dt>
        <dd>{shown.is_operator ? t('admin.yes') : t('admin.no')}</dd>
      </dl>
      <h2>{t('admin.account.addresses')}</h2>
      <ul>
        {shown.email_addresses.map((address) => (
          <li key={address.email}>
            {address.email} {address.primary && <span class="badge">{t('admin.account.primary')}</span>}{' '}
            <span class={address.verified ? 'badge ok' : 'badge warn'}>
              {address.verified ? t('admin.account.verified') : t('admin.account.notVerified')}
            </span>
          </li>
        ))}
      </ul>
      <h2>{t('admin.account.act')}</h2>
      <Form id="act" action={action} label={t('admin.account.act')} onSubmit={act}>
        <Field name="reason" label={t('admin.account.reason')} />
        <Check name="confirmed" label={t('admin.account.checked')} />
        <p class="actions">
          {shown.disabled ? (
            <Submit action={action} name="action" value="enable">
              {t('admin.account.enable')}
            </Submit>
          ) : (
            <Submit action={action} name="action" value="disable" variant="danger">
              {t('admin.account.disable')}
            </Submit>
          )}
          {shown.second_factor && (
            <Submit action={action} name="action" value="mfa-off" variant="danger">
              {t('admin.account.mfaOff')}
            </Submit>
          )}
          {shown.email_addresses.some((address) => !address.verified) && (
            <Submit action={action} name="action" value="resend-verification">
              {t('admin.account.resendVerification')}
            </Submit>
          )}
          <Submit action={action} name="action" value="sessions-end">
            {t('admin.account.sessionsEnd')}
          </Submit>
        </p>
      </Form>
      <DeleteAccount id={id} email={shown.email} onDeleted={() => setDeleted(true)} />
    </Page>
  );
}
