// An accessor's reads of an app user, recorded at most once an hour (docs/activity.md) without a
// query per read: each instance remembers, in memory, the hour it last recorded each accessor's
// read of each app user, and writes only on the first read of another hour. Instances that
// each take a read as the first of its hour write it once between them: the event's hour is
// unique with the app user and the reader (an index over reads alone, migration 0044), and
// the write is insert-or-ignore.
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { accountName, type Via } from './activity-events.ts';

const HOUR_MS = 3_600_000;

/** Pairs remembered at most; past it the memory starts again (at worst one more insert-or-ignore each). */
const REMEMBERED = 10_000;

/** What a read is of: the shared app user and its owner. */
export interface ReadOf {
  appUserId: number;
  ownerAccountId: number;
}

export class ReadLedger {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #recorded = new Map<string, number>();

  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /**
   * Records the account `readerId`'s read of `of` unless this hour's is already recorded (then
   * undefined: nothing to wait for, and a hit costs no promise). An app user deleted since the
   * read was decided has no log left to write to: the read goes unrecorded.
   */
  note(readerId: number, of: ReadOf, via: Via): Promise<void> | undefined {
    const at = this.#clock.now();
    const hour = Math.floor(at / HOUR_MS);
    const key = `${readerId}:${of.appUserId}`;
    if (this.#recorded.get(key) === hour) return undefined;
    return this.#record(key, readerId, of, at, hour, via);
  }

  async #record(key: string, readerId: number, of: ReadOf, at: number, hour: number, via: Via): Promise<void> {
    try {
      await this.#insert(readerId, of, at, hour, via);
    } catch (error) {
      if (!this.#db.isForeignKeyViolation(error)) throw error;
      return;
    }
    if (this.#recorded.size >= REMEMBERED) this.#recorded.clear();
    this.#recorded.set(key, hour);
  }

  async #insert(readerId: number, of: ReadOf, at: number, hour: number, via: Via): Promise<void> {
    await this.#db.kysely
      .insertInto('activity_events')
      .values({
        account_id: of.ownerAccountId,
        app_user_id: of.appUserId,
        at,
        actor_kind: 'accessor',
        actor_id: readerId,
        actor_name: accountName(readerId),
        action: 'read',
        via,
        read_hour: hour,
      })
      .onConflict((oc) => oc.columns(['app_user_id', 'actor_id', 'read_hour']).where('read_hour', 'is not', null).doNothing())
      .execute();
  }
}
