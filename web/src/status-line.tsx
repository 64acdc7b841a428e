// A page's status line (role="status", `Status` in components/page.tsx): what was just done,
// "Saved.". Kept above the pages, so that any part of a page says it (`useStatusLine().say`) and
// no message outlives what it was about: starting an action (useAction), asking before one
// (ConfirmButton) and moving to another address clear it — the last even when the same page
// component shows the new address (/data/users/:user → /data), which keeps its own state.
// An action that takes away the page it was on (a deletion) says what it did on the page it
// goes to (`goAndSay`). The forms' errors keep the same time (`Moment`, hooks/use-action.ts).
import { type ComponentChildren, createContext } from 'preact';
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';

interface Said {
  /** The address the message is about: shown only while the browser is there. */
  url: string;
  message: string;
}

/** When a part of the page said something: what it said stands while these stay the same. */
export interface Moment {
  /** Counts what clears the status line: actions started, questions asked, moves. */
  clears: number;
  /** Counts moves to another address. */
  moves: number;
}

interface Control {
  say(said: Said): void;
  clear(): void;
  /** Says it once the page at its address is drawn: its caller is going there. */
  sayOnArrival(said: Said): void;
  /** Now, as of the last clear or move. */
  now(): Moment;
}

const Message = createContext('');
const Now = createContext<Moment>({ clears: 0, moves: 0 });
const StatusControl = createContext<Control>({
  say: () => {},
  clear: () => {},
  sayOnArrival: () => {},
  now: () => ({ clears: 0, moves: 0 }),
});

export function StatusLineProvider({ children }: { children: ComponentChildren }) {
  const { url } = useLocation();
  const [said, setSaid] = useState<Said>({ url, message: '' });
  const moment = useRef<Moment>({ clears: 0, moves: 0 });
  const here = useRef(url);
  // A move counts as the new address is drawn, before any part of its page acts or says anything.
  if (here.current !== url) moment.current = { clears: moment.current.clears + 1, moves: moment.current.moves + 1 };
  here.current = url;
  const [, setCleared] = useState(moment.current);
  const arriving = useRef<Said | null>(null);
  // Stable, so that the many parts that only say or clear do not draw again with each message.
  const control = useMemo<Control>(
    () => ({
      // An answer that comes after the page moved on says nothing.
      say: (next) => {
        if (next.url === here.current) setSaid(next);
      },
      clear: () => {
        moment.current = { ...moment.current, clears: moment.current.clears + 1 };
        setCleared(moment.current);
        setSaid((last) => (last.message ? { ...last, message: '' } : last));
      },
      sayOnArrival: (next) => {
        if (next.url === here.current) setSaid(next);
        else arriving.current = next;
      },
      now: () => moment.current,
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
      <Now.Provider value={moment.current}>
        <Message.Provider value={said.url === url ? said.message : ''}>{children}</Message.Provider>
      </Now.Provider>
    </StatusControl.Provider>
  );
}

export interface StatusLine {
  /** Shows `message`, unless the page moved on since this part was drawn. */
  say(message: string): void;
  clear(): void;
  /** Goes to `url` and shows `message` there: for an action that took away the page it was on. */
  goAndSay(url: string, message: string): void;
  /** Now, as of the last clear or move: when an action's outcome comes, to tell how long it stands. */
  now(): Moment;
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
    now: control.now,
  };
}

/** What the status line says now. */
export function useStatusMessage(): string {
  return useContext(Message);
}

/**
 * Whether what a part said at a moment still shows: `said`, while nothing cleared the status
 * line since (its own rule, and a form's alert's); `here`, while the page stayed at its address.
 */
export function useStanding(): { said(at: Moment): boolean; here(at: Moment): boolean } {
  const now = useContext(Now);
  return {
    said: (at) => at.clears === now.clears,
    here: (at) => at.moves === now.moves,
  };
}
