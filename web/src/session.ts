// The signed-in person's token: in sessionStorage (gone with the tab) or, when they ask to be
// kept signed in, in localStorage (docs/decisions.md says why). Pages re-render through
// useToken() when it changes, in this tab or (localStorage) in another.
import { useEffect, useState } from 'preact/hooks';

const KEY = 'profile-service-token';
const listeners = new Set<() => void>();

function read(): string | null {
  return sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY);
}

let token = read();

function changed(): void {
  for (const listener of listeners) listener();
}

export function currentToken(): string | null {
  return token;
}

export function keepToken(value: string, remember: boolean): void {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
  (remember ? localStorage : sessionStorage).setItem(KEY, value);
  token = value;
  changed();
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
  token = null;
  changed();
}

window.addEventListener('storage', (event) => {
  if (event.key !== KEY && event.key !== null) return;
  token = read();
  changed();
});

export function useToken(): string | null {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion((n) => n + 1);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return token;
}

const REMEMBER_KEY = 'profile-service-provider-remember';

/** Before leaving for a provider: whether the sign-in it brings back is to be kept on this computer. */
export function rememberProviderSignIn(remember: boolean): void {
  sessionStorage.setItem(REMEMBER_KEY, remember ? 'yes' : 'no');
}

/** Back from the provider: the choice made before leaving (once). */
export function providerSignInRemembered(): boolean {
  const remember = sessionStorage.getItem(REMEMBER_KEY) === 'yes';
  sessionStorage.removeItem(REMEMBER_KEY);
  return remember;
}
