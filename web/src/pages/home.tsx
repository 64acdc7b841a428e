import { Page } from '../components/page.tsx';
import { useToken } from '../session.ts';
import { t } from '../i18n/language.ts';

export function Home() {
  const token = useToken();
  return (
    <Page title={t('layout.brand')}>
      <p>{t('home.intro')}</p>
      {token ? (
        <p>
          <a class="button" href="/data">
            {t('home.goToData')}
          </a>
        </p>
      ) : (
        <p class="actions">
          <a class="button" href="/sign-up">
            {t('nav.signUp')}
          </a>
          <a class="button secondary" href="/sign-in">
            {t('nav.signIn')}
          </a>
        </p>
      )}
    </Page>
  );
}
