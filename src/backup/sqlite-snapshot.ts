// A consistent copy of the SQLite database while the service runs and writes: SQLite's online
// backup API (better-sqlite3's db.backup()) from a connection of its own, not a file copy,
// which could catch the database file and its WAL at different moments.
import SqliteDriver from 'better-sqlite3';

/** A copy of the database, and what the manifest says of it (SQLite here, PostgreSQL in postgres-snapshot.ts). */
export interface DatabaseSnapshot {
  /** When the copy was complete: it holds every transaction committed before then. */
  takenAt: Date;
  schemaVersion: string;
  /** The storage keys the copy's media rows refer to. */
  mediaKeys: Set<string>;
  /** server_secrets holds the key sealing second-factor secrets (MFA_ENCRYPTION_KEY unset). */
  sealingKeyInside: boolean;
}

export async function snapshotSqlite(databasePath: string, destination: string): Promise<DatabaseSnapshot> {
  const source = new SqliteDriver(databasePath, { readonly: true, fileMustExist: true });
  try {
    // A write by another connection between two steps makes SQLite start the copy again; after
    // the first step the rest goes in one step, so writes that never stop cannot hold it off.
    await source.backup(destination, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) });
  } finally {
    source.close();
  }
  const takenAt = new Date();
  const copy = new SqliteDriver(destination, { fileMustExist: true });
  try {
    // One self-contained file (the copy carries the source's WAL mode; the service sets it again on opening).
    copy.pragma('journal_mode = DELETE');
    const migration = copy.prepare('select name from kysely_migration order by name desc limit 1').get() as { name: string } | undefined;
    if (!migration) throw new Error(`${databasePath} has never been migrated: it is not a Profile Service database`);
    const keys = copy.prepare('select storage_key from media_resources').pluck().all() as string[];
    const sealing = copy.prepare("select 1 from server_secrets where name = 'mfa-encryption'").get();
    return { takenAt, schemaVersion: migration.name, mediaKeys: new Set(keys), sealingKeyInside: sealing !== undefined };
  } finally {
    copy.close();
  }
}
