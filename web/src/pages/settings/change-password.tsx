import { api } from '../../api/client.ts';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useStatusLine } from '../../status-line.tsx';
import { SettingsNav } from './settings-nav.tsx';
import { t } from '../../i18n/language.ts';

export const ChangePassword = signedIn(function ChangePassword() {
  const action = useAction();
  const status = useStatusLine();
  async function submit(data: FormData, form: HTMLFormElement) {
    const body = { old_password: text(data, 'old_password'), new_password: text(data, 'new_password') };
    if (await action.run(() => api.POST('/account/change-password/', { body }))) {
      form.reset();
      status.say(t('password.changed'));
    }
  }
  return (
    <Page title={t('password.title')}>
      <SettingsNav />
      <Status />
      <Form id="change-password" action={action} onSubmit={submit}>
        <Field name="old_password" label={t('password.current')} type="password" autocomplete="current-password" required />
        <Field
          name="new_password"
          label={t('field.newPassword')}
          type="password"
          autocomplete="new-password"
          required
          hint={t('field.newPasswordHint')}
        />
        <Submit action={action}>{t('password.submit')}</Submit>
      </Form>
    </Page>
  );
});
