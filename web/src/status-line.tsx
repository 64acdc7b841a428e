// A page's status line (role="status", `Status` in components/page.tsx): what was just done,
// "Saved.". Kept above the pages, so that any part of a page says it (`useStatusLine().say`) and
// no message outlives what it was about: starting an action (useAction), asking before one
// (ConfirmButton) and moving to another address clear it — the last even when the same page
// component shows the new address (/data/users/:user → /data), which keeps its own state.
// An action that takes away the page it was on (a deletion) says what it did on the page it
// goes to (`goAndSay`).
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
  /** Says it once the page at its address is drawn: its caller is going there. */
  sayOnArrival(said: Said): void;
}

const Message = createContext('');
const StatusControl = createContext<Control>({
  say: () => {},
  clear: () => {},
  sayOnArrival: () => {},
});

export function StatusLineProvider({ children }: { children: ComponentChildren }) {
  const { url } = useLocation();
  const [said, setSaid] = useState<Said>({ url, message: '' });
  const here = useRef(url);
  here.current = url;
  const arriving = useRef<Said | null>(null);
  // Stable, so that the many parts that only say or clear do not draw again with each message.
  const control = useMemo<Control>(
    () => ({
      // An answer that comes after the page moved on says nothing.
      say: (next) => {
        if (next.url === here.current) setSaid(next);
      },
      clear: () => setSaid((last) => (last.message ? { ...last, message: '' } : last)),
      sayOnArrival: (next) => {
        if (next.url === here.current) setSaid(next);
        else arriving.current = next;
      },
    }),
    [],
  );
  // Forgotten on leaving (it is hidden at once, below), so that coming back does not show it again.
  // A message for the new address is said once its page is drawn, so that its status line
  // changes (and a screen reader reads it) rather than appearing with it.
  useEffect(() => {
    const next = arriving.current;
    arriving.current = null;
    setSaid((last) => (next?.url === url ? next : last.url === url ? last : { url, message: '' }));
  }, [url]);
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
  /** Goes to `url` and shows `message` there: for an action that took away the page it was on. */
  goAndSay(url: string, message: string): void;
}

export function useStatusLine(): StatusLine {
  const control = useContext(StatusControl);
  // The address this part was drawn for: where the action that says something was started.
  const { url, route } = useLocation();
  return {
    say: (message) => control.say({ url, message }),
    clear: control.clear,
    goAndSay: (to, message) => {
      control.sayOnArrival({ url: to, message });
      route(to);
    },
  };
}

/** What the status line says now. */
export function useStatusMessage(): string {
  return useContext(Message);
}
