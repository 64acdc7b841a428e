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
import { formatDateTime, t } from '../../i18n/language.ts';

const HERE = '/settings/identities';

function when(iso: string | null | undefined): string {
  return iso ? formatDateTime(iso) : t('field.never');
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
    else if (outcome.linked && providersKnown) status.say(t('identities.linked', { label: labelOf(outcome.linked) }));
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
      status.say(t('identities.unlinked', { name }));
      identities.reload();
    }
  }

  return (
    <Page title={t('settingsNav.identities')}>
      <SettingsNav />
      <Status />
      <p>{t('identities.intro')}</p>
      <div role="alert" class="alert">
        {action.problems.general.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      <section aria-labelledby="identities-heading">
        <h2 id="identities-heading">{t('identities.linkedHeading')}</h2>
        {!identities.data ? (
          <Loading />
        ) : identities.data.length === 0 ? (
          <p>{t('identities.none')}</p>
        ) : (
          <ul class="cards">
            {identities.data.map((identity) => (
              <li class="card" key={identity.id}>
                <h3>{labelOf(identity.provider)}</h3>
                <dl class="facts">
                  <dt>{t('field.email')}</dt>
                  <dd>{identity.email ?? '—'}</dd>
                  <dt>{t('identities.linkedAt')}</dt>
                  <dd>{when(identity.created_at)}</dd>
                  <dt>{t('sessions.lastUsed')}</dt>
                  <dd>{when(identity.last_used_at)}</dd>
                </dl>
                <button type="button" class="danger small" disabled={action.busy} onClick={() => unlink(identity)}>
                  {t('identities.unlink')}
                  <Hidden> {labelOf(identity.provider)}</Hidden>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      {providers.data && providers.data.length > 0 && (
        <section aria-labelledby="link-heading">
          <h2 id="link-heading">{t('identities.linkHeading')}</h2>
          <Form id="link-provider" action={linking} onSubmit={link}>
            <Field
              name="password"
              label={t('field.password')}
              type="password"
              autocomplete="current-password"
              hint={t('field.noPasswordHint')}
            />
            <p class="actions">
              {providers.data.map((provider) => (
                <Submit action={linking} variant="secondary" name="provider" value={provider.name} key={provider.name}>
                  {t('identities.link', { label: provider.label })}
                </Submit>
              ))}
            </p>
          </Form>
        </section>
      )}
    </Page>
  );
});
