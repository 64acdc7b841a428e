// Restore's side of PostgreSQL: the target database must have no other session (a running
// service keeps a connection open all along, the one that listens for commits, besides its
// pool) and, unless forced, no tables; then pg_restore loads the dump in one transaction.
import pg from 'pg';
import { BackupRefused } from './create-backup.ts';
import { runPgTool } from './pg-tools.ts';

function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1)) || '(the default database)';
}

/**
 * Refuses a database other sessions are connected to (pg_stat_activity); answers whether it
 * holds tables already.
 */
export async function checkPostgresTarget(url: string): Promise<{ name: string; holdsTables: boolean }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const sessions = await client.query<{ who: string }>(
      `select coalesce(nullif(application_name, ''), 'a client') || coalesce(' from ' || client_addr::text, '') as who
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    if (sessions.rows.length > 0) {
      const who = [...new Set(sessions.rows.map((row) => row.who))].join(', ');
      throw new BackupRefused(
        `Not restoring: the database ${databaseName(url)} is in use — ${sessions.rows.length} other session(s) are connected (${who}). Stop the service (and close other sessions), then restore.`,
      );
    }
    const tables = await client.query("select 1 from pg_tables where schemaname not in ('pg_catalog', 'information_schema') limit 1");
    return { name: databaseName(url), holdsTables: tables.rows.length > 0 };
  } finally {
    await client.end();
  }
}

/** Empties the database for a forced restore: the public schema, where the service keeps everything, dropped and made anew. */
export async function emptyPostgresDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('drop schema public cascade');
    await client.query('create schema public');
  } finally {
    await client.end();
  }
}

/** Loads a dump made by pg_dump --format=custom into the (empty) database `url` names. */
export async function loadPostgresDump(url: string, dumpFile: string): Promise<void> {
  await runPgTool('pg_restore', url, ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', dumpFile]);
}
