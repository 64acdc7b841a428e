// Sign in with the address and password; when MFA is on, login answers `mfa_required` and a
// second step asks for a code (docs/accounts.md). Or with a passkey: no address, password or code
// (docs/sign-in-providers.md); or with another provider (its buttons; the way back is provider-sign-in.tsx);
// or with a code e-mailed to the address (sign-in-code.tsx).
// Sent here because the API stopped taking the token, the person reads why first.
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../api/client.ts';
import type { PasskeySignIn } from '../api/types.ts';
import { authenticatorProblem, refusalAsGeneral } from '../authenticator-problem.ts';
import { Check, Field, Form, Submit, text } from '../components/form.tsx';
import { Page } from '../components/page.tsx';
import { ProviderButtons } from '../components/provider-buttons.tsx';
import { SecondStep } from '../components/second-step.tsx';
import { useAction } from '../hooks/use-action.ts';
import { rpIdProblem } from '../passkey-address.ts';
import { sessionEndSentence } from '../api/session-ended.ts';
import { keepToken, sessionEndedReason, useToken } from '../session.ts';
import { t } from '../i18n/language.ts';

/** Where to go once signed in: the page that sent the visitor here (a path of this site), else /data. */
export function destination(next: string | undefined): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/data';
}

export function SignIn() {
  const { route, query } = useLocation();
  const action = useAction();
  const [pending, setPending] = useState<{ mfaToken: string; remember: boolean } | null>(null);
  // Why the person is here when it was not their doing: their session ended elsewhere.
  useToken();
  const ended = sessionEndedReason();

  function signedIn(token: string, remember: boolean) {
    keepToken(token, remember);
    route(destination(query.next));
  }
  async function signIn(data: FormData) {
    const remember = data.get('remember') === 'on';
    if (data.get('with') === 'passkey') return signInWithPasskey(remember);
    const body = { username: text(data, 'username'), password: text(data, 'password') };
    const done = await action.run(() => api.POST('/auth/login/', { body }));
    if (!done) return;
    if ('token' in done.data) signedIn(done.data.token, remember);
    else setPending({ mfaToken: done.data.mfa_token, remember });
  }
  async function signInWithPasskey(remember: boolean) {
    const options = await action.run(() => api.POST('/auth/passkey/options/'));
    if (!options) return;
    const optionsJSON = options.data as PublicKeyCredentialRequestOptionsJSON;
    const wrongAddress = rpIdProblem(optionsJSON.rpId, window.location);
    if (wrongAddress) {
      action.fail(wrongAddress);
      return;
    }
    let response: Awaited<ReturnType<typeof startAuthentication>>;
    try {
      response = await startAuthentication({ optionsJSON });
    } catch (error) {
      action.fail(authenticatorProblem(error, false));
      return;
    }
    const body = { response } as unknown as PasskeySignIn;
    const done = await action.run(async () => refusalAsGeneral(await api.POST('/auth/passkey/', { body })));
    if (done) signedIn(done.data.token, remember);
  }
  if (pending) {
    return (
      <SecondStep
        mfaToken={pending.mfaToken}
        onSignedIn={(token) => signedIn(token, pending.remember)}
        onRestart={() => {
          action.clear();
          setPending(null);
        }}
      />
    );
  }
  return (
    <Page title={t('signIn.title')}>
      {ended && (
        <p role="status" class="notice">
          {sessionEndSentence(ended)}
        </p>
      )}
      <Form id="sign-in" action={action} onSubmit={signIn}>
        <Field name="username" label={t('field.email')} type="email" autocomplete="username" required />
        <Field name="password" label={t('field.password')} type="password" autocomplete="current-password" required />
        <Check name="remember" label={t('field.remember')} />
        <p class="actions">
          <Submit action={action}>{t('signIn.submit')}</Submit>
          <Submit action={action} name="with" value="passkey" variant="secondary">
            {t('signIn.withPasskey')}
          </Submit>
        </p>
      </Form>
      <ProviderButtons
        next={destination(query.next)}
        remember={() => (document.querySelector('input[name="remember"]') as HTMLInputElement | null)?.checked ?? false}
      />
      <p>
        <a href={query.next ? `/sign-in/code?next=${encodeURIComponent(query.next)}` : '/sign-in/code'}>{t('signIn.emailCode')}</a> ·{' '}
        <a href="/forgot-password">{t('signIn.forgotPassword')}</a> · <a href="/sign-up">{t('signUp.title')}</a>
      </p>
    </Page>
  );
}
