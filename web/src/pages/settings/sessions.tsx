// /settings/sessions: where the account is signed in (docs/accounts.md).
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { NO_PROBLEMS, type Problems, problemsOf, UNREACHABLE } from '../../api/problems.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { Hidden, Loading, Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { SettingsNav } from './settings-nav.tsx';
import { formatDateTime, t } from '../../i18n/language.ts';
import { deviceOf } from '../../device.ts';

function when(iso: string | null | undefined): string {
  return iso ? formatDateTime(iso) : '—';
}

export const Sessions = signedIn(function Sessions() {
  const sessions = useLoad(() => api.GET('/auth/sessions/'));
  const status = useStatusLine();
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS);
  const [busy, setBusy] = useState(false);

  async function end(ids: number[], message: string) {
    setBusy(true);
    setProblems(NO_PROBLEMS);
    status.clear();
    try {
      for (const id of ids) {
        const { response, error } = await api.DELETE('/auth/sessions/{id}/', { params: { path: { id } } });
        // 404: ended meanwhile (another device, or it expired): what was asked for.
        if (!response.ok && response.status !== 404) {
          setProblems(problemsOf(error, response.status));
          return;
        }
      }
      status.say(message);
    } catch {
      setProblems(UNREACHABLE);
    } finally {
      setBusy(false);
      sessions.reload();
    }
  }
  /** A new question makes the last answer's alert stale (asking clears the status line itself). */
  function ask() {
    setProblems(NO_PROBLEMS);
  }
  const others = sessions.data?.filter((session) => !session.current) ?? [];
  return (
    <Page title={t('sessions.title')}>
      <SettingsNav />
      <Status />
      <div role="alert" class="alert">
        {problems.general.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      {sessions.data ? (
        <div class="table-wrap">
          <table class="sessions">
            <caption>{t('sessions.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('sessions.signedIn')}</th>
                <th scope="col">{t('sessions.lastUsed')}</th>
                <th scope="col">{t('sessions.device')}</th>
                <th scope="col">{t('sessions.ipAddress')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('sessions.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((session) => (
                <tr key={session.id}>
                  <td data-label={t('sessions.signedIn')}>{when(session.created_at)}</td>
                  <td data-label={t('sessions.lastUsed')}>{when(session.last_used_at)}</td>
                  <td class="agent" data-label={t('sessions.device')} title={session.user_agent ?? undefined}>
                    {session.user_agent ? deviceOf(session.user_agent) : t('sessions.unknown')}
                  </td>
                  <td class="address" data-label={t('sessions.ipAddress')}>
                    {session.ip_address || t('sessions.unknown')}
                  </td>
                  <td>
                    {session.current ? (
                      <strong>{t('sessions.thisDevice')}</strong>
                    ) : (
                      <ConfirmButton
                        question={t('sessions.endQuestion', { time: when(session.created_at) })}
                        confirm={t('sessions.yesEndIt')}
                        disabled={busy}
                        onAsk={ask}
                        onConfirm={() => end([session.id], t('sessions.ended'))}
                      >
                        {t('sessions.end')}
                        <Hidden> {t('sessions.started', { time: when(session.created_at) })}</Hidden>
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Loading />
      )}
      {others.length > 0 && (
        <p>
          <ConfirmButton
            question={t('sessions.endAllQuestion', { count: others.length })}
            confirm={t('sessions.yesEndThem')}
            disabled={busy}
            onAsk={ask}
            onConfirm={() =>
              end(
                others.map((session) => session.id),
                t('sessions.othersEnded'),
              )
            }
          >
            {t('sessions.endAll')}
          </ConfirmButton>
        </p>
      )}
    </Page>
  );
});
