// `npm run outbox -- <command>` (or `node dist/cli/outbox.js <command>` from a build): the
// operator's view of the outbox. Reads the service's configuration (environment and .env)
// and its database; it never migrates, so pointing it at the wrong DATABASE_URL changes nothing.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadDotEnv } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { OutboxState } from '../db/schema.ts';
import { CommandError, openServiceDatabase } from './service-database.ts';
import {
  OUTBOX_STATES,
  countOutboxByState,
  listOutboxEntries,
  retryFailedEntries,
  statesOf,
  type OutboxEntry,
} from '../outbox/outbox-admin.ts';

const USAGE = `Usage:
  outbox list [--state pending|sent|failed] [--kind email|mailchimp] [--limit N] [--json]
      The newest N entries (default 50), oldest first, with attempts and the last error.
  outbox stats [--json]
      How many entries are pending, sent and failed.
  outbox retry <id> [<id> ...]
  outbox retry --all-failed
      Puts failed entries back in the queue with a fresh attempt budget; the running
      service's worker delivers them at its next poll.

Configuration as for the service: DATABASE_URL (and a .env file in the working directory).`;

/** Bad usage: printed with the usage text, exit status 2. */
class UsageError extends Error {}

function parsePositiveInteger(name: string, value: string): number {
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new UsageError(`${name} must be a positive whole number, got "${value}"`);
  return Number(value);
}

function isoTime(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function printEntries(entries: OutboxEntry[]): void {
  if (entries.length === 0) {
    console.log('No outbox entries match.');
    return;
  }
  const header = ['ID', 'KIND', 'STATE', 'ATTEMPTS', 'CREATED', 'NEXT ATTEMPT / SENT', 'ABOUT'];
  const rows = entries.map((e) => [
    String(e.id),
    e.kind,
    e.state,
    String(e.attempts),
    isoTime(e.createdAt),
    e.state === 'sent' ? isoTime(e.sentAt) : e.state === 'pending' ? isoTime(e.nextAttemptAt) : '-',
    e.summary,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  console.log(line(header));
  entries.forEach((entry, i) => {
    console.log(line(rows[i]!));
    if (entry.lastError) console.log(`    last error: ${entry.lastError.replace(/\s+/g, ' ')}`);
  });
}

function list(args: string[]): Run {
  const { values, positionals } = parseArgs({
    args,
    options: { state: { type: 'string' }, kind: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError(`list takes no arguments, got "${positionals.join(' ')}"`);
  if (values.state !== undefined && !OUTBOX_STATES.includes(values.state as OutboxState)) {
    throw new UsageError(`--state must be one of ${OUTBOX_STATES.join(', ')}, got "${values.state}"`);
  }
  const limit = values.limit === undefined ? 50 : parsePositiveInteger('--limit', values.limit);
  return async (db) => {
    const entries = await listOutboxEntries(db.kysely, { state: values.state as OutboxState | undefined, kind: values.kind, limit });
    if (values.json) console.log(JSON.stringify(entries, null, 2));
    else printEntries(entries);
    return 0;
  };
}

function stats(args: string[]): Run {
  const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true });
  if (positionals.length > 0) throw new UsageError(`stats takes no arguments, got "${positionals.join(' ')}"`);
  return async (db) => {
    const counts = await countOutboxByState(db.kysely);
    if (values.json) console.log(JSON.stringify(counts));
    else for (const state of OUTBOX_STATES) console.log(`${state.padEnd(8)} ${counts[state]}`);
    return 0;
  };
}

function retry(args: string[]): Run {
  const { values, positionals } = parseArgs({ args, options: { 'all-failed': { type: 'boolean' } }, allowPositionals: true });
  const allFailed = values['all-failed'] === true;
  if (allFailed === positionals.length > 0) throw new UsageError('retry needs entry ids or --all-failed (not both)');
  const ids = allFailed ? undefined : [...new Set(positionals.map((id) => parsePositiveInteger('an entry id', id)))];
  return async (db) => {
    const retried = await retryFailedEntries(db.kysely, ids, Date.now());
    console.log(retried.length === 0 ? 'No failed entries were retried.' : `Queued again: ${retried.join(', ')}`);
    if (!ids) return 0;
    const left = ids.filter((id) => !retried.includes(id));
    if (left.length === 0) return 0;
    const states = await statesOf(db.kysely, left);
    const reasons = left.map((id) => `${id} (${states.has(id) ? `${states.get(id)}, not failed` : 'no such entry'})`);
    console.error(`Not retried: ${reasons.join(', ')}`);
    return 1;
  };
}

/** A command checks its arguments first, then gets the database: bad usage never opens it. */
type Run = (db: Db) => Promise<number>;

const COMMANDS: Record<string, (args: string[]) => Run> = { list, stats, retry };

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command "${name}"`);
  const run = command(args);
  loadDotEnv();
  const config = loadConfig();
  const db = await openServiceDatabase(config.databaseUrl);
  try {
    return await run(db);
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string } | null)?.code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exitCode = 2;
    } else if (error instanceof CommandError) {
      console.error(error.message);
      process.exitCode = 1;
    } else {
      console.error(error);
      process.exitCode = 1;
    }
  },
);
