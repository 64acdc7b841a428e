// The console's first view: accounts found by a part of any of their addresses.
import { useLocation, useRoute } from 'preact-iso';
import { api } from '../../api/client.ts';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { Loading, Page } from '../../components/page.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { AdminNav, when } from './admin-nav.tsx';

export function FindAccounts() {
  const { query } = useRoute();
  const { route } = useLocation();
  const email = query.email ?? '';
  const found = useLoad(() => api.GET('/admin/accounts/', { params: { query: { email } } }), email);
  const action = useAction();
  return (
    <Page title="Find accounts">
      <AdminNav />
      <Form
        id="find"
        action={action}
        label="Find accounts"
        onSubmit={(data) => route(`/admin?email=${encodeURIComponent(text(data, 'email'))}`)}
      >
        <Field name="email" label="E-mail address contains" type="text" defaultValue={email} />
        <Submit action={action}>Find</Submit>
      </Form>
      {found.data ? (
        found.data.length === 0 ? (
          <p>No account has an address containing “{email}”.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption>{email ? `Accounts with an address containing “${email}”` : 'Accounts'} (at most 50)</caption>
              <thead>
                <tr>
                  <th scope="col">E-mail address</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">Sessions</th>
                  <th scope="col">Second factor</th>
                  <th scope="col">Status</th>
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
                    <td>{account.second_factor ? 'On' : 'Off'}</td>
                    <td>
                      {account.disabled ? 'Disabled' : 'Active'}
                      {account.is_operator ? ', operator' : ''}
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
