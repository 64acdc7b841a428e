import { Page } from '../components/page.tsx';
import { useToken } from '../session.ts';

export function Home() {
  const token = useToken();
  return (
    <Page title="Profile Service">
      <p>Keep your profiles, topics, lists, pictures and emergency information in one place.</p>
      {token ? (
        <p>
          <a class="button" href="/data">
            Go to your data
          </a>
        </p>
      ) : (
        <p class="actions">
          <a class="button" href="/sign-up">
            Sign up
          </a>
          <a class="button secondary" href="/sign-in">
            Sign in
          </a>
        </p>
      )}
    </Page>
  );
}
