// The views of one emergency link, newest first (the API keeps 90 days): a disclosure that
// loads them each time it is opened.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import type { EmergencyLink } from '../../api/types.ts';
import { Hidden, Loading } from '../../components/page.tsx';
import { useLoad } from '../../hooks/use-load.ts';
import { linkName, shownTime } from './emergency-link-fields.ts';

function ViewsTable({ link }: { link: EmergencyLink }) {
  const views = useLoad(() => api.GET('/app/emergency-links/{id}/views/', { params: { path: { id: link.id } } }), link.id);
  if (views.problems)
    return (
      <div role="alert" class="alert">
        {views.problems.general.join(' ')}
      </div>
    );
  if (!views.data) return <Loading />;
  if (views.data.length === 0) return <p class="muted">Nobody has opened it yet.</p>;
  return (
    <div class="table-wrap">
      <table class="views">
        <caption>Views of {linkName(link)}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">IP address</th>
            <th scope="col">Device</th>
          </tr>
        </thead>
        <tbody>
          {views.data.map((view, index) => (
            <tr key={`${view.viewed_at}-${index}`}>
              <td>{shownTime(view.viewed_at)}</td>
              <td class="anywhere">{view.ip_address || 'unknown'}</td>
              <td class="anywhere">{view.user_agent || 'unknown'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LinkViews({ link }: { link: EmergencyLink }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        Views<Hidden> of {linkName(link)}</Hidden>
      </summary>
      {/* Mounted on each opening, so it loads the views as they are then. */}
      {open && <ViewsTable link={link} />}
    </details>
  );
}
