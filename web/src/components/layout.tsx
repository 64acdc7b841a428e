// The frame of every page: a skip link, the header with the navigation, and <main> (only <main>
// on an emergency link's public page).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../api/client.ts';
import { forgetToken, useToken } from '../session.ts';

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
    api.GET('/account/profile/').then(
      ({ data }) => setOperator({ token, is: data?.is_operator === true }),
      () => undefined,
    );
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
  // An emergency link's page is for anyone, often a stranger on a phone: no header, no navigation.
  if (path.startsWith('/emergency/'))
    return (
      <main id="main" class="public" tabIndex={-1}>
        {children}
      </main>
    );
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <a class="brand" href="/">
          Profile Service
        </a>
        <nav aria-label="Main">
          {token ? (
            <>
              <NavLink href="/data">Your data</NavLink>
              <NavLink href="/data/gallery">Gallery</NavLink>
              <NavLink href="/data/emergency">Emergency</NavLink>
              <NavLink href="/shared">Shared with me</NavLink>
              <NavLink href="/settings">Account</NavLink>
              {operator && <NavLink href="/admin">Operators</NavLink>}
              <button type="button" class="link" onClick={signOut}>
                Sign out
              </button>
            </>
          ) : (
            <>
              <NavLink href="/sign-in">Sign in</NavLink>
              <NavLink href="/sign-up">Sign up</NavLink>
            </>
          )}
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
