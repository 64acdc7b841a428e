// /settings/export-and-delete: the export download and deleting the account (docs/accounts.md).
import { useLocation } from 'preact-iso';
import { api } from '../../api/client.ts';
import { Check, Field, Form, Submit, text } from '../../components/form.tsx';
import { Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { forgetToken } from '../../session.ts';
import { useStatusLine } from '../../status-line.tsx';
import { SettingsNav } from './settings-nav.tsx';
import { t } from '../../i18n/language.ts';

function fileName(response: Response): string {
  const match = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? 'profile-service-export.zip';
}

export const ExportAndDelete = signedIn(function ExportAndDelete() {
  const exportAction = useAction();
  const deleteAction = useAction();
  const { route } = useLocation();
  const status = useStatusLine();

  async function download() {
    let name = '';
    const done = await exportAction.run(async () => {
      const result = await api.GET('/account/export/', { parseAs: 'blob' });
      name = fileName(result.response);
      return result;
    });
    if (!done) return;
    // The token travels in a header, so the browser cannot fetch the file by a plain link.
    const url = URL.createObjectURL(done.data as Blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    status.say(t('export.downloaded', { name }));
  }
  async function remove(data: FormData) {
    if (data.get('understood') !== 'on') {
      deleteAction.fail(t('delete.tickFirst', { label: t('delete.understood') }));
      return;
    }
    const code = text(data, 'code').replace(/\s+/g, '');
    // An account without a password (made by another provider) sends none: a fresh sign-in stands in for it.
    const password = text(data, 'password');
    const body = { ...(password ? { password } : {}), ...(code ? { code } : {}) };
    if (await deleteAction.run(() => api.DELETE('/account/', { body }))) {
      forgetToken();
      route('/account-deleted');
    }
  }
  return (
    <Page title={t('exportAndDelete.title')}>
      <SettingsNav />
      <Status />
      <section aria-labelledby="export-heading">
        <h2 id="export-heading">{t('export.heading')}</h2>
        <p>{t('export.intro')}</p>
        <Form id="export" action={exportAction} onSubmit={download}>
          <Submit action={exportAction}>{t('export.submit')}</Submit>
        </Form>
      </section>
      <section aria-labelledby="delete-heading">
        <h2 id="delete-heading">{t('delete.heading')}</h2>
        <p>{t('delete.intro')}</p>
        <Form id="delete-account" action={deleteAction} onSubmit={remove}>
          <Field
            name="password"
            label={t('field.password')}
            type="password"
            autocomplete="current-password"
            hint={t('field.noPasswordHint')}
          />
          <Field name="code" label={t('delete.twoStepCode')} autocomplete="one-time-code" />
          <Check name="understood" label={t('delete.understood')} required />
          <Submit action={deleteAction} variant="danger">
            {t('delete.submit')}
          </Submit>
        </Form>
      </section>
    </Page>
  );
});
