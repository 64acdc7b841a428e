// The views of one emergency link, newest first (the API keeps 90 days): a disclosure that
// loads them each time it is opened.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import type { EmergencyLink } from '../../api/types.ts';
import { Loading } from '../../components/page.tsx';
import { useLoad } from '../../hooks/use-load.ts';
import { linkName, shownTime } from './emergency-link-fields.ts';
import { t } from '../../i18n/language.ts';
import { deviceOf } from '../../device.ts';
import { Named } from '../../components/rich-text.tsx';

function ViewsTable({ link }: { link: EmergencyLink }) {
  const views = useLoad(() => api.GET('/app/emergency-links/{id}/views/', { params: { path: { id: link.id } } }), link.id);
  if (views.problems)
    return (
      <div role="alert" class="alert">
        {views.problems.general.join(' ')}
      </div>
    );
  if (!views.data) return <Loading />;
  if (views.data.length === 0) return <p class="muted">{t('data.links.noViews')}</p>;
  return (
    <div class="table-wrap">
      <table class="views">
        <caption>{t('data.links.viewsOf', { name: linkName(link) })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('data.links.viewTime')}</th>
            <th scope="col">{t('data.links.viewIp')}</th>
            <th scope="col">{t('data.links.viewDevice')}</th>
          </tr>
        </thead>
        <tbody>
          {views.data.map((view, index) => (
            <tr key={`${view.viewed_at}-${index}`}>
              <td>{shownTime(view.viewed_at)}</td>
              <td class="anywhere">{view.ip_address || t('data.links.unknown')}</td>
              <td class="anywhere" title={view.user_agent ?? undefined}>
                {view.user_agent ? deviceOf(view.user_agent) : t('data.links.unknown')}
              </td>
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
        <Named shown={t('data.links.views')} heard={t('data.links.viewsOf', { name: linkName(link) })} />
      </summary>
      {/* Mounted on each opening, so it loads the views as they are then. */}
      {open && <ViewsTable link={link} />}
    </details>
  );
}
