// npm run migrate: --help (and -h) print the usage and touch no database; without them it
// migrates the database DATABASE_URL names.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { tempDir } from '../helpers/temp-dir.ts';

const folder = tempDir('migrate-cli-');

function migrate(databasePath: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/migrate.ts', ...args],
      { env: { ...process.env, DATABASE_URL: `sqlite:${databasePath}` }, encoding: 'utf8', timeout: 60_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe('npm run migrate', () => {
  after(() => rmSync(folder, { recursive: true, force: true }));

  for (const flag of ['--help', '-h']) {
    test(`${flag} prints the usage, exits 0, and creates no database`, async () => {
      const database = join(folder, `help${flag}.db`);
      const result = await migrate(database, flag);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Usage: npm run migrate/);
      assert.doesNotMatch(result.stdout, /Applied|up to date/);
      assert.equal(existsSync(database), false, 'no database file was created');
    });
  }

  test('an unknown argument is refused (exit 2) before any database is opened', async () => {
    const database = join(folder, 'unknown.db');
    const result = await migrate(database, '--dry-run');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--dry-run/);
    assert.equal(existsSync(database), false, 'no database file was created');
  });

  test('without arguments it migrates, then finds the database up to date', async () => {
    const database = join(folder, 'fresh.db');
    const first = await migrate(database);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^Applied: /);
    assert.equal(existsSync(database), true);
    const second = await migrate(database);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /The database is up to date\./);
  });
});
