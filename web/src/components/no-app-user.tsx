import type { Problems } from '../api/problems.ts';
import { t } from '../i18n/language.ts';
import { Loading } from './page.tsx';
import { Rich } from './rich-text.tsx';

/** What a page needing the app user shows while it loads, fails, or does not exist yet. */
export function AppUserMissing({ user, problems }: { user: null | undefined; problems: Problems | undefined }) {
  if (problems)
    return (
      <div role="alert" class="alert">
        {problems.general.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
    );
  if (user === undefined) return <Loading />;
  return (
    <p>
      <Rich k="data.noAppUser.start" parts={{ link: <a href="/data">{t('data.yourData')}</a> }} />
    </p>
  );
}
