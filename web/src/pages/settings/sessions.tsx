// /settings/sessions: where the account is signed in (contract §9).
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { NO_PROBLEMS, type Problems, problemsOf, UNREACHABLE } from '../../api/problems.ts';
import { Hidden, Loading, Page, Status } from '../../components/page.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useLoad } from '../../hooks/use-load.ts';
import { SettingsNav } from './settings-nav.tsx';

function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

export const Sessions = signedIn(function Sessions() {
  const sessions = useLoad(() => api.GET('/auth/sessions/'));
  const [status, setStatus] = useState('');
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS);
  const [busy, setBusy] = useState(false);

  async function end(ids: number[], message: string) {
    setBusy(true);
    setProblems(NO_PROBLEMS);
    setStatus('');
    try {
      for (const id of ids) {
        const { response, error } = await api.DELETE('/auth/sessions/{id}/', { params: { path: { id } } });
        // 404: ended meanwhile (another device, or it expired): what was asked for.
        if (!response.ok && response.status !== 404) {
          setProblems(problemsOf(error, response.status));
          return;
        }
      }
      setStatus(message);
    } catch {
      setProblems(UNREACHABLE);
    } finally {
      setBusy(false);
      sessions.reload();
    }
  }
  const others = sessions.data?.filter((session) => !session.current) ?? [];
  return (
    <Page title="Sessions">
      <SettingsNav />
      <Status message={status} />
      <div role="alert" class="alert">
        {problems.general.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      {sessions.data ? (
        <div class="table-wrap">
          <table>
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
                  <td>{when(session.created_at)}</td>
                  <td>{when(session.last_used_at)}</td>
                  <td>{session.user_agent || 'unknown'}</td>
                  <td>{session.ip_address || 'unknown'}</td>
                  <td>
                    {session.current ? (
                      <strong>This device</strong>
                    ) : (
                      <button type="button" class="danger" disabled={busy} onClick={() => end([session.id], 'The session is ended.')}>
                        End session<Hidden> started {when(session.created_at)}</Hidden>
                      </button>
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
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() =>
              end(
                others.map((session) => session.id),
                'Your other sessions are ended.',
              )
            }
          >
            End all other sessions
          </button>
        </p>
      )}
    </Page>
  );
});
