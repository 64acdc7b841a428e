// Sign in with a code e-mailed to a verified address (docs/accounts.md#codes-by-e-mail): the
// address first ("E-mail me a code"), then the code from the e-mail. The answer to the first
// step never says whether the address has an account. With two-step sign-in on, the second step
// follows as on /sign-in.
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../api/client.ts';
import { Check, Field, Form, Submit, text } from '../components/form.tsx';
import { Page, Status } from '../components/page.tsx';
import { SecondStep } from '../components/second-step.tsx';
import { useAction } from '../hooks/use-action.ts';
import { keepToken } from '../session.ts';
import { useStatusLine } from '../status-line.tsx';
import { destination } from './sign-in.tsx';
import { t } from '../i18n/language.ts';

export function SignInWithCode() {
  const { route, query } = useLocation();
  const ask = useAction();
  const enter = useAction();
  const status = useStatusLine();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [remember, setRemember] = useState(false);
  const [pending, setPending] = useState<string | null>(null);

  function signedIn(token: string) {
    keepToken(token, remember);
    route(destination(query.next));
  }
  async function askForCode(data: FormData) {
    const email = text(data, 'email');
    setRemember(data.get('remember') === 'on');
    const done = await ask.run(() => api.POST('/auth/email-code/', { body: { email } }));
    if (!done) return;
    setSentTo(done.data.email);
    status.say(t('signInCode.sent', { email: done.data.email }));
  }
  async function signIn(data: FormData) {
    if (!sentTo) return;
    const body = { email: sentTo, email_code: text(data, 'email_code').replace(/\s+/g, '') };
    const done = await enter.run(() => api.POST('/auth/login/email-code/', { body }));
    if (!done) return;
    if ('token' in done.data) signedIn(done.data.token);
    else setPending(done.data.mfa_token);
  }
  if (pending) {
    return (
      <SecondStep
        mfaToken={pending}
        onSignedIn={signedIn}
        onRestart={() => {
          setPending(null);
          setSentTo(null);
        }}
      />
    );
  }
  return (
    <Page title={t('signInCode.title')}>
      <Status />
      <Form id="email-code" action={ask} onSubmit={askForCode}>
        <Field name="email" label={t('field.email')} type="email" autocomplete="username" required />
        <Check name="remember" label={t('field.remember')} />
        <Submit action={ask} variant={sentTo ? 'secondary' : undefined}>
          {sentTo ? t('signInCode.newCode') : t('signIn.emailCode')}
        </Submit>
      </Form>
      {sentTo && (
        <Form id="email-code-sign-in" action={enter} onSubmit={signIn}>
          <Field
            name="email_code"
            label={t('field.emailCode')}
            inputMode="numeric"
            autocomplete="one-time-code"
            hint={t('signInCode.codeHint', { email: sentTo })}
            required
          />
          <Submit action={enter}>{t('signIn.submit')}</Submit>
        </Form>
      )}
      <p>
        <a href="/sign-in">{t('signInCode.withPassword')}</a>
      </p>
    </Page>
  );
}
