// The page the verification e-mail links to (/verify-email?key=…). The API wants the
// account's password with the key (docs/accounts.md), so the page asks for it. Opened without a
// key (an app, a link a mail scanner spent), it takes the address and the 6-digit code from the
// same e-mail instead (docs/accounts.md#codes-by-e-mail); someone signed in is offered a new
// code for each of the account's addresses still unverified.
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api } from '../api/client.ts';
import type { EmailAddress } from '../api/types.ts';
import { Field, Form, Submit, text } from '../components/form.tsx';
import { Page, Status } from '../components/page.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useLoad } from '../hooks/use-load.ts';
import { useToken } from '../session.ts';
import { useStatusLine } from '../status-line.tsx';
import { t } from '../i18n/language.ts';

/** Signed in: "E-mail me a new code" for each unverified address (a new verification e-mail, a new code). */
function NewCodes({ onSent }: { onSent(email: string): void }) {
  const addresses = useLoad(() => api.GET('/account/emails/'));
  const action = useAction();
  const status = useStatusLine();
  const unverified = addresses.data?.filter((address) => !address.verified) ?? [];
  if (unverified.length === 0) return null;
  async function send(address: EmailAddress) {
    const sent = await action.run(() => api.POST('/account/emails/{id}/resend-verification/', { params: { path: { id: address.id } } }));
    if (!sent) return;
    status.say(t('verify.newCodeSent', { email: address.email }));
    onSent(address.email);
  }
  return (
    <section aria-labelledby="new-code-heading">
      <h2 id="new-code-heading">{t('verify.noCode')}</h2>
      <div role="alert" class="alert">
        {[...action.problems.general, ...Object.values(action.problems.fields).flat()].map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      {unverified.map((address) => (
        <p key={address.id} class="actions">
          <button type="button" class="secondary" disabled={action.busy} onClick={() => send(address)}>
            {t('verify.newCodeAt', { email: address.email })}
          </button>
        </p>
      ))}
    </section>
  );
}

export function VerifyEmail() {
  const { query } = useRoute();
  const action = useAction();
  const [verified, setVerified] = useState(false);
  const [codeFor, setCodeFor] = useState<string | undefined>(undefined);
  const signedIn = useToken() !== null;
  const status = useStatusLine();
  async function submit(data: FormData) {
    const password = text(data, 'password');
    const body = query.key
      ? { key: query.key, password }
      : { email: text(data, 'email'), email_code: text(data, 'email_code').replace(/\s+/g, ''), password };
    if (!(await action.run(() => api.POST('/account/verify-email/', { body })))) return;
    setVerified(true);
    status.say(t('verify.verified'));
  }
  return (
    <Page title={t('verify.title')}>
      <Status />
      {verified ? (
        <p>
          <a class="button" href="/sign-in">
            {t('nav.signIn')}
          </a>
        </p>
      ) : (
        <>
          <Form id="verify" action={action} onSubmit={submit}>
            {query.key ? (
              <p>{t('verify.withKey')}</p>
            ) : (
              <>
                <p>{t('verify.withCode')}</p>
                <Field
                  key={codeFor}
                  name="email"
                  label={t('field.email')}
                  type="email"
                  autocomplete="email"
                  defaultValue={codeFor ?? query.email}
                  required
                />
                <Field
                  name="email_code"
                  label={t('field.emailCode')}
                  inputMode="numeric"
                  autocomplete="one-time-code"
                  hint={t('verify.codeHint')}
                  required
                />
              </>
            )}
            <Field name="password" label={t('field.password')} type="password" autocomplete="current-password" required />
            <Submit action={action}>{t('verify.submit')}</Submit>
          </Form>
          {signedIn && !query.key && <NewCodes onSent={setCodeFor} />}
        </>
      )}
    </Page>
  );
}
