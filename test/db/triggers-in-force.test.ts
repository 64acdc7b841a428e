// docs/triggers-sqlite.sql and docs/triggers-postgres.sql say which triggers are in force: the
// file of the database the suite runs on is what migrating a fresh database gives, to the byte.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { REGENERATE_COMMAND, TRIGGERS_FILE, triggersInForce, triggersPath } from '../../scripts/triggers-in-force.ts';
import { createTestDatabase, onPostgres } from '../helpers/database.ts';

const dialect = onPostgres ? 'postgres' : 'sqlite';

test(`${TRIGGERS_FILE[dialect]} is the triggers a freshly migrated database holds`, async () => {
  const database = await createTestDatabase();
  try {
    const actual = (await triggersInForce(database.url)).split('\n');
    const written = readFileSync(triggersPath(dialect), 'utf8').split('\n');
    const line = actual.findIndex((text, index) => text !== written[index]);
    const at = line === -1 ? actual.length : line;
    assert.ok(
      line === -1 && actual.length === written.length,
      `${TRIGGERS_FILE[dialect]} differs from the migrated database at line ${at + 1}:\n` +
        `  file:     ${written[at] ?? '(end of file)'}\n  database: ${actual[at] ?? '(end)'}\n` +
        `Run \`${REGENERATE_COMMAND[dialect]}\` and commit the file.`,
    );
  } finally {
    await database.drop();
  }
});
