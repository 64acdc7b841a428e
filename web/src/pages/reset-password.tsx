// The page the reset e-mail links to (/reset-password?key=…). With MFA on, the
// API also wants a code (400 under `code`): the field appears once it asks. Opened without a key
// (from /forgot-password), it takes the address and the 6-digit code from the reset e-mail.
import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api } from '../api/client.ts';
import { Field, Form, Submit, text } from '../components/form.tsx';
import { Page, Status } from '../components/page.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useStatusLine } from '../status-line.tsx';
import { t } from '../i18n/language.ts';

export function ResetPassword() {
  const { query } = useRoute();
  const action = useAction();
  const [done, setDone] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);
  const status = useStatusLine();
  useEffect(() => {
    if (action.problems.fields.code) setNeedsCode(true);
  }, [action.problems]);
  async function submit(data: FormData) {
    const code = text(data, 'code');
    const proof = query.key ? { key: query.key } : { email: text(data, 'email'), email_code: text(data, 'email_code').replace(/\s+/g, '') };
    const body = { ...proof, new_password: text(data, 'new_password'), ...(code ? { code } : {}) };
    if (!(await action.run(() => api.POST('/account/change-password/', { body })))) return;
    setDone(true);
    status.say(t('reset.changed'));
  }
  return (
    <Page title={t('reset.title')}>
      <Status />
      {done ? (
        <p>
          <a class="button" href="/sign-in">
            {t('nav.signIn')}
          </a>
        </p>
      ) : (
        <Form id="reset" action={action} onSubmit={submit}>
          {!query.key && (
            <>
              <Field name="email" label={t('field.email')} type="email" autocomplete="username" defaultValue={query.email} required />
              <Field
                name="email_code"
                label={t('field.emailCode')}
                inputMode="numeric"
                autocomplete="one-time-code"
                hint={t('reset.emailCodeHint')}
                required
              />
            </>
          )}
          <Field name="new_password" label={t('field.newPassword')} type="password" autocomplete="new-password" required />
          {needsCode && (
            <Field name="code" label={t('field.twoStepCode')} autocomplete="one-time-code" hint={t('field.twoStepCodeHint')} required />
          )}
          <Submit action={action}>{t('reset.submit')}</Submit>
        </Form>
      )}
    </Page>
  );
}
