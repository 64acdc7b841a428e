// The signed-in person's token: in sessionStorage (gone with the tab) or, when they ask to be
// kept signed in, in localStorage (docs/decisions.md says why). Pages re-render through
// useToken() when it changes, in this tab or (localStorage) in another.
import { useEffect, useState } from 'preact/hooks';
import type { SessionEnd } from './api/session-ended.ts';

const KEY = 'profile-service-token';
const listeners = new Set<() => void>();
const signInListeners = new Set<() => void>();

function read(): string | null {
  return sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY);
}

let token = read();

/** Counts the changes, so that a component can tell one it did not hear of (useToken). */
let version = 0;

function changed(): void {
  version++;
  for (const listener of listeners) listener();
}

export function currentToken(): string | null {
  return token;
}

export function keepToken(value: string, remember: boolean): void {
  endedBecause = null;
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
  (remember ? localStorage : sessionStorage).setItem(KEY, value);
  token = value;
  changed();
  for (const listener of signInListeners) listener();
}

/** `listener` runs each time this tab signs someone in (not when another tab does, nor on a reload). */
export function onSignIn(listener: () => void): void {
  signInListeners.add(listener);
}

/** Why the API stopped taking the last token, for the sign-in page to say; null: nothing to say. */
let endedBecause: SessionEnd | null = null;

/** `reason`: the session ended without this person signing out here, and this says so. */
export function forgetToken(reason?: SessionEnd): void {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
  token = null;
  endedBecause = reason ?? null;
  changed();
}

/** Why the last session ended (forgetToken's reason), until a token is kept: the sign-in page says it. */
export function sessionEndedReason(): SessionEnd | null {
  return endedBecause;
}

/** A better reason than forgetToken's, learnt from a later answer, while no one is signed in. */
export function explainSessionEnd(reason: SessionEnd): void {
  if (token !== null || endedBecause === reason) return;
  endedBecause = reason;
  changed();
}

window.addEventListener('storage', (event) => {
  if (event.key !== KEY && event.key !== null) return;
  token = read();
  changed();
});

export function useToken(): string | null {
  const [, setVersion] = useState(0);
  const renderedAt = version;
  useEffect(() => {
    const listener = () => setVersion((n) => n + 1);
    listeners.add(listener);
    // Effects run after the page is painted: a change between the render and this subscription
    // (an answer that forgot the token meanwhile) would otherwise go unheard, and a signed-in
    // page would stay on screen signed out.
    if (version !== renderedAt) listener();
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
