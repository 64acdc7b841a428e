// What wakes the live streams: a committed write to an owner's data (the owner's account id),
// or a change to an account's tokens or accessors (that account's id). SQLite: this process
// makes every write, and the change feed's triggers tell it (db/change-feed.ts); a commit by
// another process (the CLI) wakes everything. PostgreSQL: the migration's triggers NOTIFY at
// commit, heard by every instance; a lost notifications connection wakes everything when back.
import type { Db } from '../db/database.ts';

export interface CommitSignals {
  data(ownerAccountId: number): void;
  access(accountId: number): void;
  /** Something may have been missed: look at everything. */
  all(): void;
}

export function listenForCommits(db: Db, signals: CommitSignals): { close(): Promise<void> } {
  if (db.changes) {
    const feed = db.changes;
    feed.onChange('app_user', (accountId) => signals.data(accountId));
    feed.onChange('tokens', (accountId) => signals.access(accountId));
    feed.onChange('grants', (accountId) => signals.access(accountId));
    feed.onReset(() => signals.all());
    return { close: async () => {} };
  }
  if (!db.listen) return { close: async () => {} };
  return db.listen(
    ['profile_data', 'profile_access'],
    (channel, payload) => {
      const accountId = Number(payload);
      if (!Number.isInteger(accountId)) return;
      if (channel === 'profile_data') signals.data(accountId);
      else signals.access(accountId);
    },
    () => signals.all(),
  );
}
