// Apple's server-to-server notifications (docs/sign-in-providers.md): a JWT Apple signs with the keys it
// publishes for ID tokens, for one of our client ids, whose `events` claim (a JSON string)
// says what happened to a subject: consent-revoked (the person stopped using Sign in with
// Apple here: the identity and the sessions it opened end), account-delete (their Apple
// account is gone: the identity goes), email-disabled / email-enabled (their relay address
// stops or resumes forwarding: mail to it stops or resumes). Each is idempotent: an event for
// an identity no longer here, or told twice, changes nothing more. One issued (or that
// happened) more than a day ago is refused: a captured event is not acted on much later.
import type { AppContext } from '../../context.ts';
import { STALE_EVENT } from '../../auth/oidc-relying-party.ts';
import { fieldError, notFound } from '../../errors.ts';
import { lockAccount } from '../core/account-lock.ts';
import { deleteIdentity, findIdentityBySubject, revokeIdentitySessions, setMailDisabled } from './identity-queries.ts';

export const UNREADABLE_EVENT = 'identity.unreadableEvent';

/** How old an event (its `iat`, and its `event_time` when it has one) may be and still be acted on. */
export const EVENT_MAX_AGE_MS = 24 * 60 * 60_000;

interface AppleEvent {
  type: string;
  sub: string;
  /** When it happened (ms), when Apple says. */
  time: number | undefined;
}

export async function receiveAppleNotification(ctx: AppContext, jws: string): Promise<void> {
  const provider = ctx.oidc.list().find((candidate) => candidate.isApple);
  if (!provider) throw notFound();
  const now = ctx.clock.now();
  const payload = await provider.verifySignedEvent(jws, now, EVENT_MAX_AGE_MS);
  const event = eventIn(payload.events);
  if (event.time !== undefined && now - event.time > EVENT_MAX_AGE_MS) throw fieldError('payload', STALE_EVENT);
  const identity = await findIdentityBySubject(ctx.db.kysely, payload.iss ?? '', event.sub);
  if (!identity) return;
  switch (event.type) {
    case 'consent-revoked':
    case 'account-delete':
      await ctx.db.transaction(async (trx) => {
        await lockAccount(ctx, trx, identity.account_id);
        if (event.type === 'consent-revoked') await revokeIdentitySessions(trx, identity.account_id, identity.id);
        await deleteIdentity(trx, identity.account_id, identity.id);
      });
      return;
    case 'email-disabled':
    case 'email-enabled':
      await setMailDisabled(ctx.db.kysely, identity.account_id, identity.id, event.type === 'email-disabled');
      return;
    default:
      // A kind of event Apple may add later: nothing to do, and nothing to retry.
      return;
  }
}

function eventIn(events: unknown): AppleEvent {
  let parsed: unknown = events;
  if (typeof events === 'string') {
    try {
      parsed = JSON.parse(events);
    } catch {
      parsed = undefined;
    }
  }
  const event = parsed as Partial<AppleEvent> | undefined;
  if (!event || typeof event.type !== 'string' || typeof event.sub !== 'string') throw fieldError('payload', UNREADABLE_EVENT);
  return { type: event.type, sub: event.sub, time: eventTime((event as { event_time?: unknown }).event_time) };
}

/** Apple's `event_time` in ms, whether it came in seconds or in milliseconds since 1970. */
function eventTime(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  // 10^12 ms is 2001; 10^12 s is millennia away: below it, the value is seconds.
  return value < 1e12 ? value * 1000 : value;
}
