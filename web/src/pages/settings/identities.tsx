// /settings/identities: the providers the account signs in with (docs/sign-in-providers.md): linking one
// (the password again, the provider's own pages, then back here with #linked or #error), and unlinking — refused
// with the service's sentence (409) when it is the last way in.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import type { Identity, SignInProvider } from '../../api/types.ts';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { Hidden, Loading, Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { SettingsNav } from './settings-nav.tsx';

const HERE = '/settings/identities';

function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : 'Never';
}

/** What the way back from a link said (#linked=<name> or #error=<sentence>); read once. */
function takeOutcome(): { linked: string | null; error: string | null } {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  if (window.location.hash) history.replaceState(null, '', window.location.pathname);
  return { linked: fragment.get('linked'), error: fragment.get('error') };
}

export const IdentitySettings = signedIn(function IdentitySettings() {
  const identities = useLoad(() => api.GET('/account/identities/'));
  const providers = useLoad(() => api.GET('/auth/providers/'));
  const action = useAction();
  const linking = useAction();
  const [outcome, setOutcome] = useState(takeOutcome);
  const status = useStatusLine();
  const labelOf = (name: string) => providers.data?.find((provider: SignInProvider) => provider.name === name)?.label ?? name;
  // What the way back said, once, like any action's outcome: the next action clears it.
  const providersKnown = providers.data !== undefined || providers.problems !== undefined;
  useEffect(() => {
    if (outcome.error) action.fail(outcome.error);
    else if (outcome.linked && providersKnown) status.say(`${labelOf(outcome.linked)} is linked: you can sign in with it.`);
    else return;
    setOutcome({ linked: null, error: null });
  }, [outcome, providersKnown]);

  // The password again (an account without one sends none: a fresh sign-in stands in for it),
  // and the button pressed names the provider.
  async function link(data: FormData) {
    const password = text(data, 'password');
    const body = { redirect: HERE, ...(password && { password }) };
    const done = await linking.run(() => api.POST('/account/identities/{id}/', { params: { path: { id: text(data, 'provider') } }, body }));
    if (done && 'authorization_url' in done.data) window.location.assign(done.data.authorization_url);
  }
  async function unlink(identity: Identity) {
    const name = `${labelOf(identity.provider)}${identity.email ? ` (${identity.email})` : ''}`;
    if (await action.run(() => api.DELETE('/account/identities/{id}/', { params: { path: { id: identity.id } } }))) {
      status.say(`${name} is unlinked.`);
      identities.reload();
    }
  }

  return (
    <Page title="Sign-in providers">
      <SettingsNav />
      <Status />
      <p>Sign in with an account you already have elsewhere, instead of your password.</p>
      <div role="alert" class="alert">
        {action.problems.general.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      <section aria-labelledby="identities-heading">
        <h2 id="identities-heading">Linked providers</h2>
        {!identities.data ? (
          <Loading />
        ) : identities.data.length === 0 ? (
          <p>No provider is linked yet.</p>
        ) : (
          <ul class="cards">
            {identities.data.map((identity) => (
              <li class="card" key={identity.id}>
                <h3>{labelOf(identity.provider)}</h3>
                <dl class="facts">
                  <dt>E-mail address</dt>
                  <dd>{identity.email ?? '—'}</dd>
                  <dt>Linked</dt>
                  <dd>{when(identity.created_at)}</dd>
                  <dt>Last used</dt>
                  <dd>{when(identity.last_used_at)}</dd>
                </dl>
                <button type="button" class="danger small" disabled={action.busy} onClick={() => unlink(identity)}>
                  Unlink<Hidden> {labelOf(identity.provider)}</Hidden>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      {providers.data && providers.data.length > 0 && (
        <section aria-labelledby="link-heading">
          <h2 id="link-heading">Link a provider</h2>
          <Form id="link-provider" action={linking} onSubmit={link}>
            <Field
              name="password"
              label="Password"
              type="password"
              autocomplete="current-password"
              hint="No password (you signed up with another provider)? Leave it empty, within 5 minutes of signing in."
            />
            <p class="actions">
              {providers.data.map((provider) => (
                <Submit action={linking} variant="secondary" name="provider" value={provider.name} key={provider.name}>
                  Link {provider.label}
                </Submit>
              ))}
            </p>
          </Form>
        </section>
      )}
    </Page>
  );
});
