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
        <strong>{address.email}</strong> {address.primary && <span class="badge">primary</span>}{' '}
        <span class={address.verified ? 'badge ok' : 'badge warn'}>{address.verified ? 'verified' : 'not verified'}</span>
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
                `${address.email} is now your primary address.`,
              )
            }
          >
            Make primary<Hidden> {address.email}</Hidden>
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
                `A new verification e-mail is on its way to ${address.email}.`,
              )
            }
          >
            Resend verification e-mail<Hidden> to {address.email}</Hidden>
          </button>
        )}
        {!address.primary && (
          <ConfirmButton
            question={`Delete ${address.email} from your account?`}
            confirm="Yes, delete it"
            disabled={action.busy}
            onConfirm={() => act(() => api.DELETE('/account/emails/{id}/', { params: path }), `${address.email} is removed.`)}
          >
            Delete<Hidden> {address.email}</Hidden>
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
      status.say('Your name is saved.');
      account.reload();
    }
  }
  async function addAddress(data: FormData, form: HTMLFormElement) {
    const body = { email: text(data, 'email'), verified_action: data.get('make_primary') === 'on' ? (2 as const) : (1 as const) };
    const done = await addAction.run(() => api.POST('/account/emails/', { body }));
    if (done) {
      form.reset();
      status.say(`We sent a verification e-mail to ${done.data.email}.`);
      addresses.reload();
    }
  }
  return (
    <Page title="Account">
      <SettingsNav />
      <Status />
      <section aria-labelledby="name-heading">
        <h2 id="name-heading">Your name</h2>
        {account.data ? (
          <Form id="name" action={nameAction} onSubmit={saveName}>
            <Field name="first_name" label="First name" autocomplete="given-name" defaultValue={account.data.first_name} />
            <Field name="last_name" label="Last name" autocomplete="family-name" defaultValue={account.data.last_name} />
            <Submit action={nameAction}>Save name</Submit>
          </Form>
        ) : (
          <Loading />
        )}
      </section>
      <section aria-labelledby="emails-heading">
        <h2 id="emails-heading">E-mail addresses</h2>
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
          <Field name="email" label="New e-mail address" type="email" autocomplete="email" required />
          <Check name="make_primary" label="Make it my primary address once verified" />
          <Submit action={addAction}>Add address</Submit>
        </Form>
      </section>
    </Page>
  );
});
