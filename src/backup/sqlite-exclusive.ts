// Restore replaces the SQLite file; a service that still has it open would keep writing to the
// unlinked old file, acknowledging writes that vanish at its next restart. So restore first
// takes the database for itself. The service keeps the database in WAL mode, and every
// connection to a WAL database holds a shared lock on the file for as long as it is open (busy
// or idle): leaving WAL mode needs the exclusive lock, so it fails at once while any other
// process has the database open. Once out of WAL mode, an exclusive transaction is held until
// the restored file is in place, so a service starting meanwhile cannot open the old one.
import { existsSync } from 'node:fs';
import SqliteDriver from 'better-sqlite3';
import { BackupRefused } from './create-backup.ts';

export interface SqliteHold {
  release(): void;
}

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Holds the database at `path` exclusively; refused while another process has it open. No file: nothing to hold. */
export function holdSqliteExclusively(path: string): SqliteHold {
  if (!existsSync(path)) return { release() {} };
  const driver = new SqliteDriver(path, { fileMustExist: true, timeout: 0 });
  try {
    driver.pragma('busy_timeout = 0');
    const mode = driver.pragma('journal_mode = DELETE', { simple: true });
    if (mode !== 'delete') throw Object.assign(new Error(`journal mode stays ${String(mode)}`), { code: 'SQLITE_BUSY' });
    driver.exec('begin exclusive');
  } catch (error) {
    driver.close();
    const code = codeOf(error);
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new BackupRefused(
        `Not restoring: the database ${path} is in use — a service (or another program) has it open. Stop the service, then restore.`,
      );
    }
    // Not a database any more (damaged, or another file): nothing uses it as one; restore replaces it.
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return { release() {} };
    throw error;
  }
  return {
    release() {
      driver.close();
    },
  };
}
