// The page the verification e-mail links to (/verify-email?key=…). The API wants the
// account's password with the key (docs/accounts.md), so the page asks for it. Opened without a
// key (an app, a link a mail scanner spent), it takes the address and the 6-digit code from the
// same e-mail instead (docs/accounts.md#codes-by-e-mail).
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api } from '../api/client.ts';
import { Field, Form, Submit, text } from '../components/form.tsx';
import { Page, Status } from '../components/page.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useStatusLine } from '../status-line.tsx';

export function VerifyEmail() {
  const { query } = useRoute();
  const action = useAction();
  const [verified, setVerified] = useState(false);
  const status = useStatusLine();
  async function submit(data: FormData) {
    const password = text(data, 'password');
    const body = query.key
      ? { key: query.key, password }
      : { email: text(data, 'email'), email_code: text(data, 'email_code').replace(/\s+/g, ''), password };
    if (!(await action.run(() => api.POST('/account/verify-email/', { body })))) return;
    setVerified(true);
    status.say('Your e-mail address is verified.');
  }
  return (
    <Page title="Verify your e-mail address">
      <Status />
      {verified ? (
        <p>
          <a class="button" href="/sign-in">
            Sign in
          </a>
        </p>
      ) : (
        <Form id="verify" action={action} onSubmit={submit}>
          {query.key ? (
            <p>Enter the password of your account to confirm that the address is yours.</p>
          ) : (
            <>
              <p>Enter the address, the 6-digit code from the verification e-mail, and the password of your account.</p>
              <Field name="email" label="E-mail address" type="email" autocomplete="email" defaultValue={query.email} required />
              <Field
                name="email_code"
                label="Code from the e-mail"
                inputMode="numeric"
                autocomplete="one-time-code"
                hint="It works for 10 minutes; a newer verification e-mail has a new one."
                required
              />
            </>
          )}
          <Field name="password" label="Password" type="password" autocomplete="current-password" required />
          <Submit action={action}>Verify e-mail address</Submit>
        </Form>
      )}
    </Page>
  );
}
