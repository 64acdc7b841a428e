// /settings/passkeys: adding a passkey (the password again, then the authenticator), and the
// account's passkeys, renamed or removed (docs/sign-in-providers.md, docs/passkeys.md).
import { type PublicKeyCredentialCreationOptionsJSON, type RegistrationResponseJSON, startRegistration } from '@simplewebauthn/browser';
import { api } from '../../api/client.ts';
import type { Passkey, PasskeyCreation } from '../../api/types.ts';
import { authenticatorProblem, refusalAsGeneral } from '../../authenticator-problem.ts';
import { EditDisclosure } from '../../components/edit-disclosure.tsx';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { Hidden, Loading, Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { type Action, useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { SettingsNav } from './settings-nav.tsx';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { ipAddressHint, rpIdProblem } from '../../passkey-address.ts';
import { formatDateTime, t } from '../../i18n/language.ts';

function when(iso: string | null | undefined): string {
  return iso ? formatDateTime(iso) : t('field.never');
}

function AddPasskey({ onAdded }: { onAdded(passkey: Passkey): void }) {
  const action = useAction();
  async function add(data: FormData, form: HTMLFormElement) {
    const name = text(data, 'name');
    // An account without a password (made by another provider) sends none: a fresh sign-in stands in for it.
    const password = text(data, 'password');
    const options = await action.run(() => api.POST('/account/passkeys/options/', { body: password ? { password } : {} }));
    if (!options) return;
    const optionsJSON = options.data as PublicKeyCredentialCreationOptionsJSON;
    const wrongAddress = rpIdProblem(optionsJSON.rp.id, window.location);
    if (wrongAddress) {
      action.fail(wrongAddress);
      return;
    }
    let response: RegistrationResponseJSON;
    try {
      response = await startRegistration({ optionsJSON });
    } catch (error) {
      action.fail(authenticatorProblem(error, true));
      return;
    }
    const body = { name, response } as unknown as PasskeyCreation;
    const done = await action.run(async () => refusalAsGeneral(await api.POST('/account/passkeys/', { body })));
    if (done) {
      form.reset();
      onAdded(done.data);
    }
  }
  const atIpAddress = ipAddressHint(window.location);
  return (
    <section aria-labelledby="add-passkey-heading">
      <h2 id="add-passkey-heading">{t('passkeys.add')}</h2>
      <p>{t('passkeys.addIntro')}</p>
      {atIpAddress && <p class="notice">{atIpAddress}</p>}
      <Form id="add-passkey" action={action} onSubmit={add}>
        <Field name="name" label={t('passkeys.name')} hint={t('passkeys.nameHint')} required />
        <Field
          name="password"
          label={t('field.password')}
          type="password"
          autocomplete="current-password"
          hint={t('field.noPasswordHint')}
        />
        <Submit action={action}>{t('passkeys.add')}</Submit>
      </Form>
    </section>
  );
}

function PasskeyEntry({ passkey, removing, onChanged }: { passkey: Passkey; removing: Action; onChanged(message: string): void }) {
  async function remove() {
    if (await removing.run(() => api.DELETE('/account/passkeys/{id}/', { params: { path: { id: passkey.id } } }))) {
      onChanged(t('passkeys.deleted', { name: passkey.name }));
    }
  }
  return (
    <li class="card">
      <h3>{passkey.name}</h3>
      <dl class="facts">
        <dt>{t('passkeys.added')}</dt>
        <dd>{when(passkey.created_at)}</dd>
        <dt>{t('sessions.lastUsed')}</dt>
        <dd>{when(passkey.last_used_at)}</dd>
        <dt>{t('passkeys.backedUp')}</dt>
        <dd>{passkey.backed_up ? t('field.yes') : t('field.no')}</dd>
      </dl>
      <EditDisclosure
        id={`rename-passkey-${passkey.id}`}
        summary={
          <>
            {t('field.rename')}
            <Hidden> {passkey.name}</Hidden>
          </>
        }
        submit={
          <>
            {t('field.save')}
            <Hidden> {passkey.name}</Hidden>
          </>
        }
        save={(data) => api.PATCH('/account/passkeys/{id}/', { params: { path: { id: passkey.id } }, body: { name: text(data, 'name') } })}
        onSaved={(saved) => onChanged(t('passkeys.renamed', { name: passkey.name, newName: saved.name }))}
      >
        <Field name="name" label={t('passkeys.nameOf', { name: passkey.name })} defaultValue={passkey.name} required />
      </EditDisclosure>
      <ConfirmButton
        small
        question={t('passkeys.deleteQuestion', { name: passkey.name })}
        confirm={t('field.yesDelete')}
        disabled={removing.busy}
        onConfirm={remove}
      >
        {t('field.delete')}
        <Hidden> {passkey.name}</Hidden>
      </ConfirmButton>
    </li>
  );
}

export const PasskeySettings = signedIn(function PasskeySettings() {
  const passkeys = useLoad(() => api.GET('/account/passkeys/'));
  const removing = useAction();
  const status = useStatusLine();
  function changed(message: string) {
    status.say(message);
    passkeys.reload();
  }
  return (
    <Page title={t('settingsNav.passkeys')}>
      <SettingsNav />
      <Status />
      <p>{t('passkeys.intro')}</p>
      <AddPasskey onAdded={(passkey) => changed(t('passkeys.addedStatus', { name: passkey.name }))} />
      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">{t('passkeys.yours')}</h2>
        <div role="alert" class="alert">
          {removing.problems.general.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
        {!passkeys.data ? (
          <Loading />
        ) : passkeys.data.length === 0 ? (
          <p>{t('passkeys.none')}</p>
        ) : (
          <ul class="cards">
            {passkeys.data.map((passkey) => (
              <PasskeyEntry key={passkey.id} passkey={passkey} removing={removing} onChanged={changed} />
            ))}
          </ul>
        )}
      </section>
    </Page>
  );
});
