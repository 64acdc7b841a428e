// /account-deleted: where deleting the account ends, so the person reads that it is done
// rather than finding themselves on the sign-in page with no word of what happened.
import { Page } from '../components/page.tsx';
import { t } from '../i18n/language.ts';

export function AccountDeleted() {
  return (
    <Page title={t('accountDeleted.title')}>
      <p role="status">{t('accountDeleted.status')}</p>
      <p>
        {t('accountDeleted.thanks')} <a href="/sign-up">{t('accountDeleted.newAccount')}</a> · <a href="/">{t('accountDeleted.start')}</a>
      </p>
    </Page>
  );
}
