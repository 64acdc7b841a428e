// A page's frame: its one <h1>, which also names the browser tab, and a status line that
// screen readers announce (role="status") for messages such as "Saved." (status-line.tsx).
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { useStatusMessage } from '../status-line.tsx';
import { t } from '../i18n/language.ts';

export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    // The home page's heading is the service's name: not said twice.
    document.title = title === t('layout.brand') ? title : t('page.titleSuffix', { title });
  }, [title]);
  return (
    <>
      <h1>{title}</h1>
      {children}
    </>
  );
}

export function Status() {
  return (
    <p role="status" class="status">
      {useStatusMessage()}
    </p>
  );
}

/** Words a screen reader hears after a button's visible text ("Delete" → "Delete Saturday"). */
export function Hidden({ children }: { children: ComponentChildren }) {
  return <span class="visually-hidden">{children}</span>;
}

export function Loading() {
  return <p class="muted">{t('page.loading')}</p>;
}
