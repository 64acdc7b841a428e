// A log of events (docs/activity.md) as sentences a person reads, newest first, with the time
// as "3 hours ago" (the exact time on hover), and a button for older events.
import { useEffect, useState } from 'preact/hooks';
import type { ApiResult } from '../api/client.ts';
import { type Problems, problemsOf, UNREACHABLE } from '../api/problems.ts';
import type { ActivityEvent } from '../api/types.ts';
import { currentLanguage, formatDateTime, t } from '../i18n/language.ts';
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

/** "3 hours ago", "just now", in the reader's language. */
export function relativeTime(iso: string, now = Date.now()): string {
  const ago = now - Date.parse(iso);
  const format = new Intl.RelativeTimeFormat(currentLanguage(), { numeric: 'auto' });
  for (const [unit, ms] of UNITS) if (Math.abs(ago) >= ms) return format.format(-Math.round(ago / ms), unit);
  return t('data.activity.justNow');
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
  if (events.length === 0) return <p class="muted">{t('data.activity.nothingYet')}</p>;
  return (
    <>
      <ol class="activity" aria-label={caption}>
        {events.map((event) => (
          <li key={event.id}>
            <span>{sentence(event)}</span>{' '}
            <time class="muted" dateTime={event.at} title={formatDateTime(event.at)}>
              {relativeTime(event.at)}
            </time>
          </li>
        ))}
      </ol>
      {next && (
        <p>
          <button type="button" disabled={busy} onClick={() => more(beforeOf(next))}>
            {t('data.activity.showOlder')}
          </button>
        </p>
      )}
    </>
  );
}

/** Who did it, as a person reads it: the accessor's name, "You", "The service's operators". */
export function actorName(event: ActivityEvent): string {
  const actor = event.actor;
  if (!actor) return t('data.activity.actor.service');
  if (actor.kind === 'owner') return t('data.activity.actor.you');
  if (actor.kind === 'operator') return t('data.activity.actor.operators');
  if (actor.kind === 'emergency_link') return t('data.activity.actor.emergencyLink', { name: actor.name ?? '' });
  return actor.name || t('data.activity.actor.someone');
}

/** An operator's action on the account, as a whole sentence ("The service's operators disabled your account."). */
export function operatorSentence(event: ActivityEvent): string {
  switch (event.action) {
    case 'disabled':
      return t('data.activity.operator.disabled');
    case 'enabled':
      return t('data.activity.operator.enabled');
    case 'second_factor_off':
      return t('data.activity.operator.secondFactorOff');
    case 'verification_resent':
      return t('data.activity.operator.verificationResent');
    case 'sessions_ended':
      return t('data.activity.operator.sessionsEnded');
    case 'operator_granted':
      return t('data.activity.operator.operatorGranted');
    case 'operator_revoked':
      return t('data.activity.operator.operatorRevoked');
  }
  return t('data.activity.operator.other', { action: event.action });
}
