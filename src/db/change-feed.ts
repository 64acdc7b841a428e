// Tells in-process caches, synchronously, when rows they copy change (SQLite only).
//
// The server's connection gets TEMP triggers on the rows the request path copies into memory
// (an account's tokens, its app user's data version), which report what changed and whose.
// They call a JavaScript function inside the statement that changes the row, before its
// transaction commits, so a cache forgets the row before anyone can read the new state.
//
// TEMP triggers belong to this connection alone: other processes (the CLI, an operator's
// sqlite3 shell) never see them, and their commits are caught by `PRAGMA data_version`, which
// moves whenever another connection commits: then every cache is dropped. That look is taken
// once per turn of the event loop, so another process's commit is seen from the next turn on
// (microseconds), this process's own at once.
//
// PostgreSQL has no such hook into this process (several instances share the database and
// NOTIFY arrives after the commit), so there the caches are not used and every request asks
// the database.
import type SqliteDriver from 'better-sqlite3';

/**
 * What a cache copies: an account's tokens, its app user (its data version, or that there is
 * none), or the accessors accepted by it (its grants: filed under the accepting account).
 */
export type Watched = 'tokens' | 'app_user' | 'grants';

type ChangeListener = (accountId: number) => void;

const FUNCTION_NAME = 'profile_service_account_changed';

const TRIGGERS: { name: string; on: string; watched: Watched; accountId: string }[] = [
  { name: 'watch_auth_tokens_update', on: 'AFTER UPDATE ON main.auth_tokens', watched: 'tokens', accountId: 'OLD.account_id' },
  { name: 'watch_auth_tokens_delete', on: 'AFTER DELETE ON main.auth_tokens', watched: 'tokens', accountId: 'OLD.account_id' },
  { name: 'watch_app_users_insert', on: 'AFTER INSERT ON main.app_users', watched: 'app_user', accountId: 'NEW.account_id' },
  {
    name: 'watch_app_users_version',
    on: 'AFTER UPDATE OF data_version ON main.app_users',
    watched: 'app_user',
    accountId: 'NEW.account_id',
  },
  { name: 'watch_app_users_delete', on: 'AFTER DELETE ON main.app_users', watched: 'app_user', accountId: 'OLD.account_id' },
  // Pending invitations (no account yet) are nobody's grants: the function ignores a null.
  { name: 'watch_accessors_insert', on: 'AFTER INSERT ON main.accessors', watched: 'grants', accountId: 'NEW.user_with_access_id' },
  { name: 'watch_accessors_update_new', on: 'AFTER UPDATE ON main.accessors', watched: 'grants', accountId: 'NEW.user_with_access_id' },
  { name: 'watch_accessors_update_old', on: 'AFTER UPDATE ON main.accessors', watched: 'grants', accountId: 'OLD.user_with_access_id' },
  { name: 'watch_accessors_delete', on: 'AFTER DELETE ON main.accessors', watched: 'grants', accountId: 'OLD.user_with_access_id' },
];

export class ChangeFeed {
  readonly #driver: SqliteDriver.Database;
  readonly #listeners: Record<Watched, ChangeListener[]> = { tokens: [], app_user: [], grants: [] };
  readonly #resetListeners: (() => void)[] = [];
  #dataVersion: SqliteDriver.Statement | undefined;
  #lastDataVersion = 0;
  #checkedThisTurn = false;

  constructor(driver: SqliteDriver.Database) {
    this.#driver = driver;
    driver.function(FUNCTION_NAME, { deterministic: false }, (watched: unknown, accountId: unknown) => {
      if (accountId === null) return null;
      for (const listener of this.#listeners[watched as Watched]) listener(accountId as number);
      return null;
    });
  }

  /** Creates the triggers; the watched tables must exist (call after the migrations). */
  start(): void {
    for (const trigger of TRIGGERS) {
      this.#driver.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${trigger.name} ${trigger.on}
        BEGIN SELECT ${FUNCTION_NAME}('${trigger.watched}', ${trigger.accountId}); END`);
    }
    this.#dataVersion = this.#driver.prepare('PRAGMA data_version').pluck();
    this.#lastDataVersion = this.#dataVersion.get() as number;
  }

  /** False until `start`: caches must not keep anything before the triggers exist. */
  get started(): boolean {
    return this.#dataVersion !== undefined;
  }

  /**
   * `listener` runs when a token of the account changes (`tokens`), when its app user is added
   * or deleted or its data version moves (`app_user`), or when an accessor it accepted changes
   * or goes (`grants`).
   */
  onChange(watched: Watched, listener: ChangeListener): void {
    this.#listeners[watched].push(listener);
  }

  /** `listener` runs when another connection has committed: whatever was copied may be stale. */
  onReset(listener: () => void): void {
    this.#resetListeners.push(listener);
  }

  /**
   * Call before trusting a cached copy. Looks at `PRAGMA data_version` at most once per turn
   * of the event loop (a look costs about as much as a small query).
   */
  catchUp(): void {
    if (this.#checkedThisTurn || !this.#dataVersion) return;
    this.#checkedThisTurn = true;
    setImmediate(() => {
      this.#checkedThisTurn = false;
    });
    const version = this.#dataVersion.get() as number;
    if (version === this.#lastDataVersion) return;
    this.#lastDataVersion = version;
    for (const listener of this.#resetListeners) listener();
  }
}
