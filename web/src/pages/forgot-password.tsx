import { useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { Field, Form, Submit, text } from '../components/form.tsx';
import { Page, Status } from '../components/page.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useStatusLine } from '../status-line.tsx';

export function ForgotPassword() {
  const action = useAction();
  const status = useStatusLine();
  const [sentTo, setSentTo] = useState<string | null>(null);
  async function submit(data: FormData) {
    const done = await action.run(() => api.POST('/account/reset-password/', { body: { email: text(data, 'email') } }));
    if (!done) return;
    setSentTo(done.data.email);
    status.say(`If ${done.data.email} is a verified address of an account, a link to choose a new password is on its way.`);
  }
  return (
    <Page title="Forgotten password">
      <Status />
      <Form id="forgot" action={action} onSubmit={submit}>
        <Field name="email" label="E-mail address" type="email" autocomplete="email" required />
        <Submit action={action}>Send reset link</Submit>
      </Form>
      <p>
        {/* The e-mail carries a code beside the link: typed here, it needs no link at all. */}
        <a href={sentTo ? `/reset-password?email=${encodeURIComponent(sentTo)}` : '/reset-password'}>Enter the code from the e-mail</a>
      </p>
    </Page>
  );
}
