// The console's outbox (messages waiting or given up on, never their recipient or body) and
// audit (every operator action and read, newest first).
import { api } from '../../api/client.ts';
import { Hidden, Loading, Page, Status } from '../../components/page.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { AdminNav, when } from './admin-nav.tsx';

export function AdminOutbox() {
  const outbox = useLoad(() => api.GET('/admin/outbox/'));
  const action = useAction();
  const status = useStatusLine();
  async function retry(id: number) {
    if (await action.run(() => api.POST('/admin/outbox/{id}/retry/', { params: { path: { id } }, body: {} }))) {
      status.say(`Message ${id} is queued again.`);
      outbox.reload();
    }
  }
  const shown = outbox.data;
  return (
    <Page title="Outbox">
      <AdminNav />
      <Status />
      <div role="alert" class="alert">
        {action.problems.general.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      {shown ? (
        <>
          <dl class="facts">
            <dt>Waiting</dt>
            <dd>{shown.pending}</dd>
            <dt>Failed</dt>
            <dd>{shown.failed}</dd>
            <dt>Oldest waiting</dt>
            <dd>{shown.oldest_pending_seconds === null ? '—' : `${shown.oldest_pending_seconds} seconds`}</dd>
          </dl>
          {shown.messages.length === 0 ? (
            <p>No message is waiting or failed.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption>Messages waiting or failed, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Message</th>
                    <th scope="col">Kind</th>
                    <th scope="col">State</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Next attempt</th>
                    <th scope="col">Last error</th>
                    <th scope="col">
                      <Hidden>Actions</Hidden>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shown.messages.map((message) => (
                    <tr key={message.id}>
                      <td>{message.id}</td>
                      <td>{message.kind}</td>
                      <td>{message.state}</td>
                      <td>{message.attempts}</td>
                      <td>{when(message.next_attempt_at)}</td>
                      <td>{message.last_error ?? '—'}</td>
                      <td>
                        {message.state === 'failed' && (
                          <button type="button" disabled={action.busy} onClick={() => retry(message.id)}>
                            Retry<Hidden> message {message.id}</Hidden>
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : (
        <Loading />
      )}
    </Page>
  );
}

export function AdminAudit() {
  const audit = useLoad(() => api.GET('/admin/audit/', { params: { query: { limit: '200' } } }));
  return (
    <Page title="Audit">
      <AdminNav />
      {audit.data ? (
        audit.data.length === 0 ? (
          <p>No operator has acted yet.</p>
        ) : (
          <div class="table-wrap">
            <table class="audit">
              <caption>What operators looked at and did, newest first (kept a year)</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Account</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.map((record) => (
                  <tr key={record.id}>
                    <td data-label="When">{when(record.at)}</td>
                    <td data-label="Who" class="address">
                      {record.operator
                        ? (record.operator.email ?? `account ${record.operator.id}`)
                        : `command line${record.cli_user ? ` (${record.cli_user})` : ''}`}
                    </td>
                    <td data-label="Action" class="action">
                      {record.action}
                    </td>
                    <td data-label="Account">
                      {record.account_id === null ? '—' : <a href={`/admin?account=${record.account_id}`}>{record.account_id}</a>}
                    </td>
                    <td data-label="Reason">{record.search !== null ? `searched for “${record.search}”` : (record.reason ?? '—')}</td>
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
