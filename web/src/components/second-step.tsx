// The second step of a sign-in with TOTP on (docs/accounts.md): the mfa_token the first step
// answered, and a code from the authenticator app or a recovery code. The password sign-in and
// the sign-in through another provider both end here when the account asks for it.
import { api } from '../api/client.ts';
import { Field, Form, Submit, text } from './form.tsx';
import { Page } from './page.tsx';
import { useAction } from '../hooks/use-action.ts';
import { t } from '../i18n/language.ts';

export function SecondStep({ mfaToken, onSignedIn, onRestart }: { mfaToken: string; onSignedIn(token: string): void; onRestart(): void }) {
  const action = useAction();
  async function verify(data: FormData) {
    const body = { mfa_token: mfaToken, code: text(data, 'code').replace(/\s+/g, '') };
    const done = await action.run(() => api.POST('/auth/login/mfa/', { body }));
    if (done) onSignedIn(done.data.token);
  }
  return (
    <Page title={t('secondStep.title')}>
      <Form id="sign-in-code" action={action} onSubmit={verify}>
        <Field name="code" label={t('secondStep.codeLabel')} autocomplete="one-time-code" required />
        <p class="actions">
          <Submit action={action}>{t('secondStep.verify')}</Submit>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              action.clear();
              onRestart();
            }}
          >
            {t('secondStep.startAgain')}
          </button>
        </p>
      </Form>
    </Page>
  );
}
