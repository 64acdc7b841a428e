// A log of events (docs/activity.md) as sentences a person reads, newest first, with the time
// as "3 hours ago" (the exact time on hover), and a button for older events.
import { useEffect, useState } from 'preact/hooks';
import type { ApiResult } from '../api/client.ts';
import { type Problems, problemsOf, UNREACHABLE } from '../api/problems.ts';
import type { ActivityEvent } from '../api/types.ts';
import { Loading } from './page.tsx';

type Page = { events: ActivityEvent[]; next: string | null };

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "3 hours ago", "just now". */
export function relativeTime(iso: string, now = Date.now()): string {
  const ago = now - Date.parse(iso);
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) if (Math.abs(ago) >= ms) return format.format(-Math.round(ago / ms), unit);
  return 'just now';
}

/** The `before` of a page's `next` URL. */
function beforeOf(next: string): string | undefined {
  return new URL(next).searchParams.get('before') ?? undefined;
}

export function ActivityList({
  load,
  sentence,
  caption,
}: {
  load(before: string | undefined): Promise<ApiResult<Page>>;
  sentence(event: ActivityEvent): string;
  caption: string;
}) {
  const [events, setEvents] = useState<ActivityEvent[] | undefined>(undefined);
  const [next, setNext] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problems | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  async function more(before: string | undefined) {
    setBusy(true);
    try {
      const result = await load(before);
      if (result.response.ok && result.data) {
        const page = result.data;
        setEvents((shown) => [...(before === undefined ? [] : (shown ?? [])), ...page.events]);
        setNext(page.next);
        setProblems(undefined);
      } else setProblems(problemsOf(result.error, result.response.status));
    } catch {
      setProblems(UNREACHABLE);
    } finally {
      setBusy(false);
    }
  }
  useEffect(() => {
    void more(undefined);
  }, []);

  if (problems)
    return (
      <div role="alert" class="alert">
        {problems.general.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
    );
  if (!events) return <Loading />;
  if (events.length === 0) return <p class="muted">Nothing yet.</p>;
  return (
    <>
      <ol class="activity" aria-label={caption}>
        {events.map((event) => (
          <li key={event.id}>
            <span>{sentence(event)}</span>{' '}
            <time class="muted" dateTime={event.at} title={new Date(event.at).toLocaleString()}>
              {relativeTime(event.at)}
            </time>
          </li>
        ))}
      </ol>
      {next && (
        <p>
          <button type="button" disabled={busy} onClick={() => more(beforeOf(next))}>
            Show older
          </button>
        </p>
      )}
    </>
  );
}

/** Who did it, as a person reads it: the accessor's name, "You", "An operator". */
export function actorName(event: ActivityEvent): string {
  const actor = event.actor;
  if (!actor) return 'The service';
  if (actor.kind === 'owner') return 'You';
  if (actor.kind === 'operator') return "The service's operators";
  if (actor.kind === 'emergency_link') return `Your emergency link '${actor.name ?? ''}'`;
  return actor.name || 'Someone you share with';
}

/** An operator's action on the account, as a sentence's predicate. */
export const OPERATOR: Record<string, string> = {
  disabled: 'disabled your account',
  enabled: 'enabled your account again',
  second_factor_off: 'turned off your two-step sign-in',
  verification_resent: 'sent new verification e-mails',
  sessions_ended: 'signed your account out everywhere',
  operator_granted: 'made your account an operator',
  operator_revoked: 'took the operator role from your account',
};
