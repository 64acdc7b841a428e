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

function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
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
    <Page title="Sessions">
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
            <caption>Where your account is signed in</caption>
            <thead>
              <tr>
                <th scope="col">Signed in</th>
                <th scope="col">Last used</th>
                <th scope="col">Device</th>
                <th scope="col">IP address</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((session) => (
                <tr key={session.id}>
                  <td data-label="Signed in">{when(session.created_at)}</td>
                  <td data-label="Last used">{when(session.last_used_at)}</td>
                  <td class="agent" data-label="Device" title={session.user_agent ?? undefined}>
                    {session.user_agent || 'unknown'}
                  </td>
                  <td class="address" data-label="IP address">
                    {session.ip_address || 'unknown'}
                  </td>
                  <td>
                    {session.current ? (
                      <strong>This device</strong>
                    ) : (
                      <ConfirmButton
                        question={`End the session started ${when(session.created_at)}?`}
                        confirm="Yes, end it"
                        disabled={busy}
                        onAsk={ask}
                        onConfirm={() => end([session.id], 'The session is ended.')}
                      >
                        End session<Hidden> started {when(session.created_at)}</Hidden>
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
            question={`End all ${others.length} other sessions? Those devices will have to sign in again.`}
            confirm="Yes, end them"
            disabled={busy}
            onAsk={ask}
            onConfirm={() =>
              end(
                others.map((session) => session.id),
                'Your other sessions are ended.',
              )
            }
          >
            End all other sessions
          </ConfirmButton>
        </p>
      )}
    </Page>
  );
});
