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

type ActionName = 'disable' | 'enable' | 'mfa-off' | 'resend-verification' | 'sessions-end';

const DONE: Record<ActionName, string> = {
  disable: 'The account is disabled: its sessions are ended and it cannot sign in.',
  enable: 'The account is enabled: it can sign in again.',
  'mfa-off': 'The second factor is turned off, and the person is being told by e-mail.',
  'resend-verification': 'A verification e-mail is on its way to each unverified address.',
  'sessions-end': 'Every session of the account is ended.',
};

export function AdminAccount({ id }: { id: number }) {
  const account = useLoad(() => api.GET('/admin/accounts/{id}/', { params: { path: { id } } }), id);
  const action = useAction();
  const status = useStatusLine();
  const [deleted, setDeleted] = useState(false);

  async function act(data: FormData, form: HTMLFormElement) {
    const name = text(data, 'action') as ActionName;
    if (data.get('confirmed') !== 'on') {
      action.fail('Tick "I have checked this is the right account" first.');
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
    status.say(DONE[name]);
    form.reset();
    account.reload();
  }

  if (deleted) {
    return (
      <Page title="Account deleted">
        <AdminNav />
        <Status />
        <p>
          <a href="/admin">Find another account</a>
        </p>
      </Page>
    );
  }
  if (account.notFound) {
    return (
      <Page title="No such account">
        <AdminNav />
        <p>There is no account with this id: it may have been deleted.</p>
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
        <dt>Status</dt>
        <dd>{shown.disabled ? 'Disabled' : 'Active'}</dd>
        <dt>Name</dt>
        <dd>{`${shown.first_name} ${shown.last_name}`.trim() || '—'}</dd>
        <dt>Created</dt>
        <dd>{when(shown.created_at)}</dd>
        <dt>Last sign-in</dt>
        <dd>{when(shown.last_sign_in_at)}</dd>
        <dt>Sessions</dt>
        <dd>{shown.sessions}</dd>
        <dt>Second factor</dt>
        <dd>{shown.second_factor ? 'On' : 'Off'}</dd>
        <dt>Operator</dt>
        <dd>{shown.is_operator ? 'Yes' : 'No'}</dd>
      </dl>
      <h2>E-mail addresses</h2>
      <ul>
        {shown.email_addresses.map((address) => (
          <li key={address.email}>
            {address.email} {address.primary && <span class="badge">primary</span>}{' '}
            <span class={address.verified ? 'badge ok' : 'badge warn'}>{address.verified ? 'verified' : 'not verified'}</span>
          </li>
        ))}
      </ul>
      <h2>Act on this account</h2>
      <Form id="act" action={action} label="Act on this account" onSubmit={act}>
        <Field name="reason" label="Reason (kept in the audit)" />
        <Check name="confirmed" label="I have checked this is the right account" />
        <p class="actions">
          {shown.disabled ? (
            <Submit action={action} name="action" value="enable">
              Enable account
            </Submit>
          ) : (
            <Submit action={action} name="action" value="disable" variant="danger">
              Disable account
            </Submit>
          )}
          {shown.second_factor && (
            <Submit action={action} name="action" value="mfa-off" variant="danger">
              Turn off second factor
            </Submit>
          )}
          {shown.email_addresses.some((address) => !address.verified) && (
            <Submit action={action} name="action" value="resend-verification">
              Resend verification e-mail
            </Submit>
          )}
          <Submit action={action} name="action" value="sessions-end">
            End all sessions
          </Submit>
        </p>
      </Form>
      <DeleteAccount id={id} email={shown.email} onDeleted={() => setDeleted(true)} />
    </Page>
  );
}
