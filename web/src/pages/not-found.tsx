import { Page } from '../components/page.tsx';
import { t } from '../i18n/language.ts';

export function NotFound() {
  return (
    <Page title={t('notFound.title')}>
      <p>
        {t('notFound.text')} <a href="/">{t('field.goHome')}</a>
      </p>
    </Page>
  );
}
