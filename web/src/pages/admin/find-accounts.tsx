// The console's first view: accounts found by a part of any of their addresses.
import { useLocation, useRoute } from 'preact-iso';
import { api } from '../../api/client.ts';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { Loading, Page } from '../../components/page.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { AdminNav, when } from './admin-nav.tsx';
import { t } from '../../i18n/language.ts';

export function FindAccounts() {
  const { query } = useRoute();
  const { route } = useLocation();
  const email = query.email ?? '';
  const found = useLoad(() => api.GET('/admin/accounts/', { params: { query: { email } } }), email);
  const action = useAction();
  return (
    <Page title={t('admin.find.title')}>
      <AdminNav />
      <Form
        id="find"
        action={action}
        label={t('admin.find.title')}
        onSubmit={(data) => route(`/admin?email=${encodeURIComponent(text(data, 'email'))}`)}
      >
        <Field name="email" label={t('admin.find.contains')} type="text" defaultValue={email} />
        <Submit action={action}>{t('admin.find.button')}</Submit>
      </Form>
      {found.data ? (
        found.data.length === 0 ? (
          <p>{t('admin.find.none', { email })}</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption>{email ? t('admin.find.captionContaining', { email, limit: 50 }) : t('admin.find.caption', { limit: 50 })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.find.email')}</th>
                  <th scope="col">{t('admin.created')}</th>
                  <th scope="col">{t('admin.lastSignIn')}</th>
                  <th scope="col">{t('admin.sessions')}</th>
                  <th scope="col">{t('admin.secondFactorFact')}</th>
                  <th scope="col">{t('admin.status')}</th>
                </tr>
              </thead>
              <tbody>
                {found.data.map((account) => (
                  <tr key={account.id}>
                    <td>
                      <a href={`/admin?account=${account.id}`}>{account.email}</a>
                    </td>
                    <td>{when(account.created_at)}</td>
                    <td>{when(account.last_sign_in_at)}</td>
                    <td>{account.sessions}</td>
                    <td>{account.second_factor ? t('admin.on') : t('admin.off')}</td>
                    <td>
                      {t('admin.find.standing', {
                        disabled: account.disabled ? 'yes' : 'no',
                        operator: account.is_operator ? 'yes' : 'no',
                      })}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : (
        <Loading />
      )}
    </Page>
  );
}
