// /account-deleted: where deleting the account ends, so the person reads that it is done
// rather than finding themselves on the sign-in page with no word of what happened.
import { Page } from '../components/page.tsx';

export function AccountDeleted() {
  return (
    <Page title="Your account is deleted">
      <p role="status">Your account and everything in it are deleted, for good. This browser is signed out.</p>
      <p>
        Thank you for using Profile Service. <a href="/sign-up">Create a new account</a> or <a href="/">go to the start page</a>.
      </p>
    </Page>
  );
}
