// A consistent copy of the PostgreSQL database while the service runs and writes: pg_dump in
// its custom format, from a snapshot this module exports and keeps open (pg_export_snapshot),
// so that the dump and what the manifest says of it (the schema version, the media files its
// rows name, whether the sealing key is inside) are read from one and the same moment.
import pg from 'pg';
import { runPgTool } from './pg-tools.ts';
import type { DatabaseSnapshot } from './sqlite-snapshot.ts';

export async function snapshotPostgres(url: string, destination: string): Promise<DatabaseSnapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Before the snapshot: every write acknowledged before this time is in it.
    const takenAt = new Date();
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const migration = await client.query<{ name: string }>('select name from kysely_migration order by name desc limit 1').catch(() => ({
      rows: [],
    }));
    const name = migration.rows[0]?.name;
    if (!name) throw new Error('the database has never been migrated: it is not a Profile Service database');
    const keys = await client.query<{ storage_key: string }>('select storage_key from media_resources');
    const sealing = await client.query("select 1 from server_secrets where name = 'mfa-encryption'");
    // The exporting transaction stays open until pg_dump has taken its snapshot (it is done when pg_dump is).
    await runPgTool('pg_dump', url, ['--format=custom', `--snapshot=${rows[0]!.snapshot}`, `--file=${destination}`]);
    await client.query('commit');
    return {
      takenAt,
      schemaVersion: name,
      mediaKeys: new Set(keys.rows.map((row) => row.storage_key)),
      sealingKeyInside: (sealing.rowCount ?? 0) > 0,
    };
  } finally {
    await client.end();
  }
}
