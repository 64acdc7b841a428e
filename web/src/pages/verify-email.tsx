// The page the verification e-mail links to (/verify-email?key=…). The API wants the
// account's password with the key (docs/accounts.md), so the page asks for it.
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
    const body = { key: query.key ?? text(data, 'key'), password: text(data, 'password') };
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
          <p>Enter the password of your account to confirm that the address is yours.</p>
          {!query.key && <Field name="key" label="Verification key" required />}
          <Field name="password" label="Password" type="password" autocomplete="current-password" required />
          <Submit action={action}>Verify e-mail address</Submit>
        </Form>
      )}
    </Page>
  );
}
