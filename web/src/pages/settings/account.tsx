// /settings: the account's name and its e-mail addresses (docs/accounts.md).
import { type ApiResult, api } from '../../api/client.ts';
import type { EmailAddress } from '../../api/types.ts';
import { Check, Field, Form, Submit, text } from '../../components/form.tsx';
import { Hidden, Loading, Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { SettingsNav } from './settings-nav.tsx';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { t } from '../../i18n/language.ts';

function AddressRow({ address, onChange }: { address: EmailAddress; onChange(): void }) {
  const action = useAction();
  const status = useStatusLine();
  const path = { path: { id: address.id } };
  async function act(call: () => Promise<ApiResult<unknown>>, message: string) {
    if (await action.run(call)) {
      status.say(message);
      onChange();
    }
  }
  return (
    <li class="card">
      <p>
        <strong>{address.email}</strong> {address.primary && <span class="badge">{t('settings.primary')}</span>}{' '}
        <span class={address.verified ? 'badge ok' : 'badge warn'}>
          {address.verified ? t('settings.verified') : t('settings.notVerified')}
        </span>
      </p>
      <div role="alert" class="alert">
        {[...action.problems.general, ...Object.values(action.problems.fields).flat()].map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      <p class="actions">
        {address.verified && !address.primary && (
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              act(
                () => api.PATCH('/account/emails/{id}/', { params: path, body: { primary: true } }),
                t('settings.nowPrimary', { email: address.email }),
              )
            }
          >
            {t('settings.makePrimary')}
            <Hidden> {address.email}</Hidden>
          </button>
        )}
        {!address.verified && (
          <button
            type="button"
            class="secondary"
            disabled={action.busy}
            onClick={() =>
              act(
                () => api.POST('/account/emails/{id}/resend-verification/', { params: path }),
                t('settings.verificationResent', { email: address.email }),
              )
            }
          >
            {t('settings.resend')}
            <Hidden> {t('settings.resendTo', { email: address.email })}</Hidden>
          </button>
        )}
        {!address.primary && (
          <ConfirmButton
            question={t('settings.deleteQuestion', { email: address.email })}
            confirm={t('field.yesDelete')}
            disabled={action.busy}
            onConfirm={() =>
              act(() => api.DELETE('/account/emails/{id}/', { params: path }), t('settings.removed', { email: address.email }))
            }
          >
            {t('field.delete')}
            <Hidden> {address.email}</Hidden>
          </ConfirmButton>
        )}
      </p>
    </li>
  );
}

export const Account = signedIn(function Account() {
  const account = useLoad(() => api.GET('/account/profile/'));
  const addresses = useLoad(() => api.GET('/account/emails/'));
  const nameAction = useAction();
  const addAction = useAction();
  const status = useStatusLine();

  async function saveName(data: FormData) {
    const body = { first_name: text(data, 'first_name'), last_name: text(data, 'last_name') };
    if (await nameAction.run(() => api.PATCH('/account/profile/', { body }))) {
      status.say(t('settings.nameSaved'));
      account.reload();
    }
  }
  async function addAddress(data: FormData, form: HTMLFormElement) {
    const body = { email: text(data, 'email'), verified_action: data.get('make_primary') === 'on' ? (2 as const) : (1 as const) };
    const done = await addAction.run(() => api.POST('/account/emails/', { body }));
    if (done) {
      form.reset();
      status.say(t('settings.verificationSent', { email: done.data.email }));
      addresses.reload();
    }
  }
  return (
    <Page title={t('settings.title')}>
      <SettingsNav />
      <Status />
      <section aria-labelledby="name-heading">
        <h2 id="name-heading">{t('settings.nameHeading')}</h2>
        {account.data ? (
          <Form id="name" action={nameAction} onSubmit={saveName}>
            <Field name="first_name" label={t('field.firstName')} autocomplete="given-name" defaultValue={account.data.first_name} />
            <Field name="last_name" label={t('field.lastName')} autocomplete="family-name" defaultValue={account.data.last_name} />
            <Submit action={nameAction}>{t('settings.saveName')}</Submit>
          </Form>
        ) : (
          <Loading />
        )}
      </section>
      <section aria-labelledby="emails-heading">
        <h2 id="emails-heading">{t('settings.emailsHeading')}</h2>
        {addresses.data ? (
          <ul class="cards">
            {addresses.data.map((address) => (
              <AddressRow key={address.id} address={address} onChange={addresses.reload} />
            ))}
          </ul>
        ) : (
          <Loading />
        )}
        <Form id="add-email" action={addAction} onSubmit={addAddress}>
          <Field name="email" label={t('settings.newEmail')} type="email" autocomplete="email" required />
          <Check name="make_primary" label={t('settings.makePrimaryLater')} />
          <Submit action={addAction}>{t('settings.addAddress')}</Submit>
        </Form>
      </section>
    </Page>
  );
});
