// A page's status line (role="status", `Status` in components/page.tsx): what was just done,
// "Saved.". Kept above the pages, so that any part of a page says it (`useStatusLine().say`) and
// no message outlives what it was about: starting an action (useAction), asking before one
// (ConfirmButton) and moving to another address clear it — the last even when the same page
// component shows the new address (/data/users/:user → /data), which keeps its own state.
import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';

interface Said {
  /** The address the message is about: shown only while the browser is there. */
  url: string;
  message: string;
}

interface Control {
  say(said: Said): void;
  clear(): void;
}

const Message = createContext('');
const StatusControl = createContext<Control>({ say: () => {}, clear: () => {} });

export function StatusLineProvider({ children }: { children: ComponentChildren }) {
  const { url } = useLocation();
  const [said, setSaid] = useState<Said>({ url, message: '' });
  const here = useRef(url);
  here.current = url;
  // Stable, so that the many parts that only say or clear do not draw again with each message.
  const control = useMemo<Control>(
    () => ({
      // An answer that comes after the page moved on says nothing.
      say: (next) => {
        if (next.url === here.current) setSaid(next);
      },
      clear: () => setSaid((last) => (last.message ? { ...last, message: '' } : last)),
    }),
    [],
  );
  // Forgotten on leaving (it is hidden at once, below), so that coming back does not show it again.
  useEffect(() => control.clear(), [url]);
  return (
    <StatusControl.Provider value={control}>
      <Message.Provider value={said.url === url ? said.message : ''}>{children}</Message.Provider>
    </StatusControl.Provider>
  );
}

export interface StatusLine {
  /** Shows `message`, unless the page moved on since this part was drawn. */
  say(message: string): void;
  clear(): void;
}

export function useStatusLine(): StatusLine {
  const control = useContext(StatusControl);
  // The address this part was drawn for: where the action that says something was started.
  const { url } = useLocation();
  return { say: (message) => control.say({ url, message }), clear: control.clear };
}

/** What the status line says now. */
export function useStatusMessage(): string {
  return useContext(Message);
}
