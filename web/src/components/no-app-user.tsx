import type { Problems } from '../api/problems.ts';
import { Loading } from './page.tsx';

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
      Start on <a href="/data">Your data</a> first: save your name there.
    </p>
  );
}
