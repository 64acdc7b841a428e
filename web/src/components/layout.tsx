// The frame of every page: a skip link, the header with the navigation, and <main> (only <main>
// on an emergency link's public page).
import { type ComponentChildren, Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../api/client.ts';
import { t } from '../i18n/language.ts';
import { LanguageSwitcher } from '../i18n/switcher.tsx';
import { forgetToken, useToken } from '../session.ts';
import { signedInAccount } from '../signed-in-account.ts';
import { useLanguage } from '../i18n/use-language.ts';

function NavLink({ href, children }: { href: string; children: ComponentChildren }) {
  const { path } = useLocation();
  return (
    <a href={href} aria-current={path === href ? 'page' : undefined}>
      {children}
    </a>
  );
}

/** Whether the signed-in account is an operator's, for the menu: asked once per token. */
function useOperator(token: string | null): boolean {
  const [operator, setOperator] = useState<{ token: string; is: boolean } | null>(null);
  useEffect(() => {
    if (!token || operator?.token === token) return;
    void signedInAccount(token).then((account) => setOperator({ token, is: account?.is_operator === true }));
  }, [token]);
  return token !== null && operator?.token === token && operator.is;
}

export function Layout({ children }: { children: ComponentChildren }) {
  const token = useToken();
  const operator = useOperator(token);
  const { route, path } = useLocation();
  // After a move to another page (not on the first load), focus goes to its content, so a
  // screen reader starts there rather than at the link just followed.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else document.getElementById('main')?.focus();
  }, [path]);
  async function signOut() {
    // Revoked on the service, then forgotten here, whatever the answer (it may be expired already).
    await api.POST('/auth/logout/').catch(() => undefined);
    forgetToken();
    route('/sign-in');
  }
  // A switch of language draws the frame and the page again in the new one: the page anew (the
  // router keeps a page's drawing while its address stays), so a half-filled form starts empty.
  // Not an emergency link's page, which follows the switch itself: drawn anew, it would count as
  // another view and ask for its PIN again.
  const language = useLanguage();
  // An emergency link's page is for anyone, often a stranger on a phone: no header, no
  // navigation; only the language switcher, after the information.
  if (path.startsWith('/emergency/'))
    return (
      <main id="main" class="public" tabIndex={-1}>
        {children}
        <LanguageSwitcher />
      </main>
    );
  return (
    <>
      <a class="skip" href="#main">
        {t('layout.skipToContent')}
      </a>
      <header>
        <a class="brand" href="/">
          {t('layout.brand')}
        </a>
        <nav aria-label={t('layout.mainNavigation')}>
          {token ? (
            <>
              <NavLink href="/data">{t('nav.yourData')}</NavLink>
              <NavLink href="/data/gallery">{t('nav.gallery')}</NavLink>
              <NavLink href="/data/emergency">{t('nav.emergency')}</NavLink>
              <NavLink href="/shared">{t('nav.sharedWithMe')}</NavLink>
              <NavLink href="/settings">{t('nav.account')}</NavLink>
              {operator && <NavLink href="/admin">{t('nav.operators')}</NavLink>}
              <button type="button" class="link" onClick={signOut}>
                {t('nav.signOut')}
              </button>
            </>
          ) : (
            <>
              <NavLink href="/sign-in">{t('nav.signIn')}</NavLink>
              <NavLink href="/sign-up">{t('nav.signUp')}</NavLink>
            </>
          )}
        </nav>
        <LanguageSwitcher />
      </header>
      <main id="main" tabIndex={-1}>
        <Fragment key={language}>{children}</Fragment>
      </main>
    </>
  );
}
