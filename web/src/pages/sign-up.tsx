import { useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { DevInboxHint } from '../components/dev-inbox-hint.tsx';
import { Field, Form, Submit, text } from '../components/form.tsx';
import { Page, Status } from '../components/page.tsx';
import { ProviderButtons } from '../components/provider-buttons.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useStatusLine } from '../status-line.tsx';
import { currentLanguage, t } from '../i18n/language.ts';

export function SignUp() {
  const action = useAction();
  const [sent, setSent] = useState(false);
  const status = useStatusLine();
  async function submit(data: FormData) {
    // The account's language (for its e-mails) is the page's.
    const body = {
      language: currentLanguage(),
      email: text(data, 'email'),
      password: text(data, 'password'),
      first_name: text(data, 'first_name'),
      last_name: text(data, 'last_name'),
    };
    const done = await action.run(() => api.POST('/auth/register/', { body }));
    if (!done) return;
    setSent(true);
    status.say(t('signUp.created', { email: done.data.email }));
  }
  return (
    <Page title={t('signUp.title')}>
      <Status />
      <DevInboxHint />
      {!sent && (
        <Form id="sign-up" action={action} onSubmit={submit}>
          <Field name="email" label={t('field.email')} type="email" autocomplete="email" required />
          <Field
            name="password"
            label={t('field.password')}
            type="password"
            autocomplete="new-password"
            required
            hint={t('field.newPasswordHint')}
          />
          <Field name="first_name" label={t('field.firstName')} autocomplete="given-name" />
          <Field name="last_name" label={t('field.lastName')} autocomplete="family-name" />
          <Submit action={action}>{t('signUp.submit')}</Submit>
        </Form>
      )}
      {!sent && <ProviderButtons next="/data" />}
      <p>
        {t('signUp.haveAccount')} <a href="/sign-in">{t('nav.signIn')}</a>
      </p>
    </Page>
  );
}
