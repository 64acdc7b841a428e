// The console's outbox (messages waiting or given up on, never their recipient or body) and
// audit (every operator action and read, newest first).
import { api } from '../../api/client.ts';
import { Hidden, Loading, Page, Status } from '../../components/page.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { AdminNav, when } from './admin-nav.tsx';
import { t } from '../../i18n/language.ts';
import { Named } from '../../components/rich-text.tsx';

/** An outbox message's kind in words: email, mailchimp or media-removal (another, as it is). */
function kindOf(kind: string): string {
  if (kind === 'email') return t('admin.outbox.kind.email');
  if (kind === 'mailchimp') return t('admin.outbox.kind.mailchimp');
  if (kind === 'media-removal') return t('admin.outbox.kind.mediaRemoval');
  return kind;
}

export function AdminOutbox() {
  const outbox = useLoad(() => api.GET('/admin/outbox/'));
  const action = useAction();
  const status = useStatusLine();
  async function retry(id: number) {
    if (await action.run(() => api.POST('/admin/outbox/{id}/retry/', { params: { path: { id } }, body: {} }))) {
      status.say(t('admin.outbox.queued', { id }));
      outbox.reload();
    }
  }
  const shown = outbox.data;
  return (
    <Page title={t('admin.nav.outbox')}>
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
            <dt>{t('admin.outbox.waiting')}</dt>
            <dd>{shown.pending}</dd>
            <dt>{t('admin.outbox.failed')}</dt>
            <dd>{shown.failed}</dd>
            <dt>{t('admin.outbox.oldest')}</dt>
            <dd>{shown.oldest_pending_seconds === null ? '—' : t('admin.outbox.seconds', { seconds: shown.oldest_pending_seconds })}</dd>
          </dl>
          {shown.messages.length === 0 ? (
            <p>{t('admin.outbox.none')}</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption>{t('admin.outbox.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('admin.outbox.message')}</th>
                    <th scope="col">{t('admin.outbox.kind')}</th>
                    <th scope="col">{t('admin.state')}</th>
                    <th scope="col">{t('admin.attempts')}</th>
                    <th scope="col">{t('admin.nextAttempt')}</th>
                    <th scope="col">{t('admin.outbox.lastError')}</th>
                    <th scope="col">
                      <Hidden>{t('admin.actions')}</Hidden>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {shown.messages.map((message) => (
                    <tr key={message.id}>
                      <td>{message.id}</td>
                      <td>{kindOf(message.kind)}</td>
                      <td>{t('admin.stateValue', { state: message.state })}</td>
                      <td>{message.attempts}</td>
                      <td>{when(message.next_attempt_at)}</td>
                      <td>{message.last_error ?? '—'}</td>
                      <td>
                        {message.state === 'failed' && (
                          <button type="button" disabled={action.busy} onClick={() => retry(message.id)}>
                            <Named shown={t('admin.retry')} heard={t('admin.outbox.retryNamed', { id: message.id })} />
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
    <Page title={t('admin.nav.audit')}>
      <AdminNav />
      {audit.data ? (
        audit.data.length === 0 ? (
          <p>{t('admin.audit.none')}</p>
        ) : (
          <div class="table-wrap">
            <table class="audit">
              <caption>{t('admin.audit.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.audit.when')}</th>
                  <th scope="col">{t('admin.audit.who')}</th>
                  <th scope="col">{t('admin.audit.action')}</th>
                  <th scope="col">{t('admin.audit.account')}</th>
                  <th scope="col">{t('admin.audit.reason')}</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.map((record) => (
                  <tr key={record.id}>
                    <td data-label={t('admin.audit.when')}>{when(record.at)}</td>
                    <td data-label={t('admin.audit.who')} class="address">
                      {record.operator
                        ? (record.operator.email ?? t('admin.audit.accountId', { id: record.operator.id }))
                        : record.cli_user
                          ? t('admin.audit.commandLineUser', { user: record.cli_user })
                          : t('admin.audit.commandLine')}
                    </td>
                    <td data-label={t('admin.audit.action')} class="action">
                      {record.action}
                    </td>
                    <td data-label={t('admin.audit.account')}>
                      {record.account_id === null ? '—' : <a href={`/admin?account=${record.account_id}`}>{record.account_id}</a>}
                    </td>
                    <td data-label={t('admin.audit.reason')}>
                      {record.search !== null ? t('admin.audit.searched', { search: record.search }) : (record.reason ?? '—')}
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
