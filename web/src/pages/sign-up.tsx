import { useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { DevInboxHint } from '../components/dev-inbox-hint.tsx';
import { Field, Form, Submit, text } from '../components/form.tsx';
import { Page, Status } from '../components/page.tsx';
import { ProviderButtons } from '../components/provider-buttons.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useStatusLine } from '../status-line.tsx';

export function SignUp() {
  const action = useAction();
  const [sent, setSent] = useState(false);
  const status = useStatusLine();
  async function submit(data: FormData) {
    const body = {
      email: text(data, 'email'),
      password: text(data, 'password'),
      first_name: text(data, 'first_name'),
      last_name: text(data, 'last_name'),
    };
    const done = await action.run(() => api.POST('/auth/register/', { body }));
    if (!done) return;
    setSent(true);
    status.say(`Account created. We sent an e-mail to ${done.data.email}: open its link to verify your address, then sign in.`);
  }
  return (
    <Page title="Create an account">
      <Status />
      <DevInboxHint />
      {!sent && (
        <Form id="sign-up" action={action} onSubmit={submit}>
          <Field name="email" label="E-mail address" type="email" autocomplete="email" required />
          <Field
            name="password"
            label="Password"
            type="password"
            autocomplete="new-password"
            required
            hint="At least 8 characters, not only digits, not a common password."
          />
          <Field name="first_name" label="First name" autocomplete="given-name" />
          <Field name="last_name" label="Last name" autocomplete="family-name" />
          <Submit action={action}>Create account</Submit>
        </Form>
      )}
      {!sent && <ProviderButtons next="/data" />}
      <p>
        Already have an account? <a href="/sign-in">Sign in</a>.
      </p>
    </Page>
  );
}
