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

function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : 'Never';
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
      <h2 id="add-passkey-heading">Add a passkey</h2>
      <p>Your device or password manager makes the passkey and asks for your PIN, fingerprint or face.</p>
      {atIpAddress && <p class="notice">{atIpAddress}</p>}
      <Form id="add-passkey" action={action} onSubmit={add}>
        <Field name="name" label="Name of the passkey" hint='What you call it: "Phone", "Laptop".' required />
        <Field
          name="password"
          label="Password"
          type="password"
          autocomplete="current-password"
          hint="No password (you signed up with another provider)? Leave it empty, within 5 minutes of signing in."
        />
        <Submit action={action}>Add a passkey</Submit>
      </Form>
    </section>
  );
}

function PasskeyEntry({ passkey, removing, onChanged }: { passkey: Passkey; removing: Action; onChanged(message: string): void }) {
  async function remove() {
    if (await removing.run(() => api.DELETE('/account/passkeys/{id}/', { params: { path: { id: passkey.id } } }))) {
      onChanged(`${passkey.name} is deleted.`);
    }
  }
  return (
    <li class="card">
      <h3>{passkey.name}</h3>
      <dl class="facts">
        <dt>Added</dt>
        <dd>{when(passkey.created_at)}</dd>
        <dt>Last used</dt>
        <dd>{when(passkey.last_used_at)}</dd>
        <dt>Backed up</dt>
        <dd>{passkey.backed_up ? 'Yes' : 'No'}</dd>
      </dl>
      <EditDisclosure
        id={`rename-passkey-${passkey.id}`}
        summary={
          <>
            Rename<Hidden> {passkey.name}</Hidden>
          </>
        }
        submit={
          <>
            Save<Hidden> {passkey.name}</Hidden>
          </>
        }
        save={(data) => api.PATCH('/account/passkeys/{id}/', { params: { path: { id: passkey.id } }, body: { name: text(data, 'name') } })}
        onSaved={(saved) => onChanged(`${passkey.name} is now called ${saved.name}.`)}
      >
        <Field name="name" label={`Name of ${passkey.name}`} defaultValue={passkey.name} required />
      </EditDisclosure>
      <ConfirmButton
        small
        question={`Delete the passkey ${passkey.name}? It will no longer sign you in.`}
        confirm="Yes, delete it"
        disabled={removing.busy}
        onConfirm={remove}
      >
        Delete<Hidden> {passkey.name}</Hidden>
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
    <Page title="Passkeys">
      <SettingsNav />
      <Status />
      <p>A passkey signs you in without your address or password, and needs no two-step code.</p>
      <AddPasskey onAdded={(passkey) => changed(`${passkey.name} is added.`)} />
      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Your passkeys</h2>
        <div role="alert" class="alert">
          {removing.problems.general.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
        {!passkeys.data ? (
          <Loading />
        ) : passkeys.data.length === 0 ? (
          <p>You have no passkeys yet.</p>
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
