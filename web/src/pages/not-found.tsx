import { Page } from '../components/page.tsx';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is no page here. <a href="/">Go to the start page</a>.
      </p>
    </Page>
  );
}
