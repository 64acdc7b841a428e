import { useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { Field, Form, Submit, text } from '../components/form.tsx';
import { Page, Status } from '../components/page.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useStatusLine } from '../status-line.tsx';
import { t } from '../i18n/language.ts';

export function ForgotPassword() {
  const action = useAction();
  const status = useStatusLine();
  const [sentTo, setSentTo] = useState<string | null>(null);
  async function submit(data: FormData) {
    const done = await action.run(() => api.POST('/account/reset-password/', { body: { email: text(data, 'email') } }));
    if (!done) return;
    setSentTo(done.data.email);
    status.say(t('forgot.sent', { email: done.data.email }));
  }
  return (
    <Page title={t('forgot.title')}>
      <Status />
      <Form id="forgot" action={action} onSubmit={submit}>
        <Field name="email" label={t('field.email')} type="email" autocomplete="email" required />
        <Submit action={action}>{t('forgot.submit')}</Submit>
      </Form>
      <p>
        {/* The e-mail carries a code beside the link: typed here, it needs no link at all. */}
        <a href={sentTo ? `/reset-password?email=${encodeURIComponent(sentTo)}` : '/reset-password'}>{t('forgot.enterCode')}</a>
      </p>
    </Page>
  );
}
