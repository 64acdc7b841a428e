import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Recovery codes are stored as `h1:` and an HMAC in hex (auth/recovery-codes.ts), 67
// characters, beside the 64 of the SHA-256 hashes stored before. PostgreSQL enforces the
// column's char(64); SQLite never enforces a declared length, so it has nothing to change.
export function recoveryCodeHmacMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'sqlite') return;
      await db.schema
        .alterTable('recovery_codes')
        .alterColumn('code_hash', (c) => c.setDataType('varchar(100)'))
        .execute();
    },
  };
}
