// `npm run accounts -- <command>` (or `node dist/cli/accounts.js <command>` from a build): the
// operators' actions (docs/operators.md) from the server's command line, for a server with no
// browser and for giving the operator role, which nothing else gives. Reads the service's
// configuration (environment and .env) and its database; never migrates. Every change, and
// every find, is recorded in the operators' audit with via "cli", no operator, and who ran the
// command on which host (`user@host`).
import { OidcProviders } from '../auth/oidc-relying-party.ts';
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import {
  deleteAccountFor,
  disableAccount,
  enableAccount,
  endSessions,
  auditList,
  findAccounts,
  MAX_AUDIT_RECORDS,
  grantOperator,
  resendVerifications,
  revokeOperator,
  turnOffSecondFactor,
  type Actor,
} from '../admin/admin-service.ts';
import { findAccountIdByEmail } from '../admin/admin-queries.ts';
import type { AdminAccount, AuditList } from '../admin/admin-schemas.ts';
import { MemoryCounterStore } from '../auth/counter-store.ts';
import { SecretBox } from '../auth/secret-box.ts';
import { systemClock } from '../clock.ts';
import { ConfigError, loadConfig, loadDotEnv, type Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/database.ts';
import { DomainError } from '../errors.ts';
import { writeErrorBody } from '../http/error-language.ts';
import { Outbox } from '../outbox/outbox.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { CommandError, openServiceDatabase } from './service-database.ts';

const USAGE = `Usage:
  accounts find <text> [--json]
      At most 50 accounts, by id, with an address containing the text (any case).
  accounts audit [--limit <n>] [--json]
      The operators' audit, newest first (default 50 records, at most 500): every action and
      read, through the API or this command line, with who did it and why.
  accounts grant-operator <email or id> [--reason <text>]
  accounts revoke-operator <email or id> [--reason <text>]
      Give or take back the operator role (an operator also needs a second factor).
  accounts disable <email or id> [--reason <text>]
      Ends every session at once and refuses every sign-in until enabled.
  accounts enable <email or id> [--reason <text>]
  accounts mfa-off <email or id> [--reason <text>]
      Removes the second factor (TOTP, recovery codes, passkeys); the person is e-mailed.
  accounts resend <email or id> [--reason <text>]
      E-mails a fresh verification key to each unverified address.
  accounts sessions-end <email or id> [--reason <text>]
  accounts delete <email or id> [--reason <text>]
      Deletes the account and everything it holds, as its owner would; a last notice is e-mailed.

Every change and every find is recorded in the operators' audit (via "cli", with user@host).
E-mails go out through the running service's outbox. Configuration as for the service: DATABASE_URL (and a .env file).`;

/** Bad usage: printed with the usage text, exit status 2. */
class UsageError extends Error {}

/**
 * Who runs the command, for the audit: the OS user and the host, `user@host`, with the user
 * who ran sudo when there was one. The person with a shell on the server could claim anything;
 * this tells honest colleagues apart.
 */
function commandUser(): string {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    // No entry in the password database (a container's arbitrary uid).
    user = `uid ${process.getuid?.() ?? 'unknown'}`;
  }
  const sudo = process.env.SUDO_USER;
  const who = sudo && sudo !== user ? `${user} (sudo by ${sudo})` : user;
  return `${who}@${hostname()}`.slice(0, 300);
}

const ACTOR: Actor = { via: 'cli', user: commandUser() };

type Action = (ctx: AppContext, actor: Actor, accountId: number, reason: string | null) => Promise<unknown>;

const ACTIONS: Record<string, { act: Action; done: string }> = {
  'grant-operator': { act: grantOperator, done: 'is an operator now' },
  'revoke-operator': { act: revokeOperator, done: 'is no longer an operator' },
  disable: { act: disableAccount, done: 'is disabled: its sessions ended and it cannot sign in' },
  enable: { act: enableAccount, done: 'is enabled' },
  'mfa-off': { act: turnOffSecondFactor, done: 'has no second factor now; the person is being e-mailed' },
  resend: { act: resendVerifications, done: 'gets a fresh verification e-mail at each unverified address' },
  'sessions-end': { act: endSessions, done: 'has no sessions now' },
  delete: { act: deleteAccountFor, done: 'is deleted; a last notice is being e-mailed' },
};

/**
 * What the services need, for a command: no HTTP, no worker (the running service's worker
 * delivers what is queued at its next poll), no media store (removals are queued too), and
 * throwaway keys (no action opens a sealed secret or signs a URL).
 */
function commandContext(config: Config, db: Db): AppContext {
  const noMedia = new Proxy({} as MediaStorage, {
    get() {
      throw new Error('the accounts command does not use the media store');
    },
  });
  return {
    config,
    db,
    clock: systemClock,
    outbox: new Outbox(),
    log: pino({ level: 'warn' }, pino.destination(2)) as FastifyBaseLogger,
    counters: new MemoryCounterStore(),
    cacheCounts: new Map(),
    media: noMedia,
    secrets: {
      mediaUrl: randomBytes(32),
      messagingKey: undefined,
      mfa: new SecretBox([randomBytes(32)]),
      recoveryCodes: randomBytes(32),
      emailCodes: randomBytes(32),
      cursors: new SecretBox([randomBytes(32)]),
    },
    // Discovers nothing until asked: a deletion only queues its refresh-token revocations.
    oidc: new OidcProviders(config.oidcProviders, config.publicUrl),
  };
}

/** An account by id (digits) or by any of its addresses. */
async function accountOf(db: Db, target: string): Promise<number> {
  if (/^\d{1,10}$/.test(target)) {
    const row = await db.kysely.selectFrom('accounts').select('id').where('id', '=', Number(target)).executeTakeFirst();
    if (!row) throw new CommandError(`No account has the id ${target}.`);
    return row.id;
  }
  const id = await findAccountIdByEmail(db.kysely, target);
  if (id === undefined) throw new CommandError(`No account has the address "${target}".`);
  return id;
}

function printAccounts(accounts: AdminAccount[]): void {
  if (accounts.length === 0) {
    console.log('No account matches.');
    return;
  }
  const header = ['ID', 'EMAIL', 'CREATED', 'LAST SIGN-IN', 'SESSIONS', '2ND FACTOR', 'STATUS'];
  const rows = accounts.map((a) => [
    String(a.id),
    a.email,
    a.created_at.slice(0, 10),
    a.last_sign_in_at?.slice(0, 16).replace('T', ' ') ?? '-',
    String(a.sessions),
    a.second_factor ? 'yes' : 'no',
    [a.disabled ? 'disabled' : 'active', ...(a.is_operator ? ['operator'] : [])].join(', '),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

function printAudit(records: AuditList): void {
  if (records.length === 0) {
    console.log('The audit is empty.');
    return;
  }
  const header = ['AT (UTC)', 'ACTION', 'ACCOUNT', 'BY', 'REASON OR SEARCH'];
  const rows = records.map((r) => [
    r.at.slice(0, 19).replace('T', ' '),
    r.action,
    r.account_id === null ? '-' : String(r.account_id),
    r.via === 'cli' ? `cli ${r.cli_user ?? ''}`.trim() : `api ${r.operator?.email ?? `operator ${r.operator?.id ?? '?'} (gone)`}`,
    r.search === null ? (r.reason ?? '') : `"${r.search}"${r.reason ? ` ${r.reason}` : ''}`,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

/** `audit`'s --limit: 1 to MAX_AUDIT_RECORDS, 50 unless given. */
function auditLimit(raw: string | undefined): number {
  if (raw === undefined) return 50;
  const limit = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_AUDIT_RECORDS)) throw new UsageError(`--limit takes a number from 1 to ${MAX_AUDIT_RECORDS}`);
  return limit;
}

type Run = (ctx: AppContext) => Promise<number>;

function parse(name: string, args: string[]): Run {
  const { values, positionals } = parseArgs({
    args,
    options: { reason: { type: 'string' }, json: { type: 'boolean' }, limit: { type: 'string' } },
    allowPositionals: true,
  });
  if (name === 'audit') {
    if (positionals.length !== 0 || values.reason !== undefined) throw new UsageError('audit takes only --limit and --json');
    const limit = auditLimit(values.limit);
    return async (ctx) => {
      const records = await auditList(ctx, limit);
      if (values.json) console.log(JSON.stringify(records, null, 2));
      else printAudit(records);
      return 0;
    };
  }
  if (values.limit !== undefined) throw new UsageError('--limit is for audit');
  if (positionals.length !== 1) throw new UsageError(`${name} takes one ${name === 'find' ? 'text' : 'e-mail address or account id'}`);
  const target = positionals[0]!;
  if (name === 'find') {
    return async (ctx) => {
      const accounts = await findAccounts(ctx, ACTOR, target);
      if (values.json) console.log(JSON.stringify(accounts, null, 2));
      else printAccounts(accounts);
      return 0;
    };
  }
  const action = ACTIONS[name];
  if (!action) throw new UsageError(`unknown command "${name}"`);
  if (values.json) throw new UsageError('--json is for find and audit');
  return async (ctx) => {
    const accountId = await accountOf(ctx.db, target);
    await action.act(ctx, ACTOR, accountId, values.reason ?? null);
    console.log(`Account ${accountId} ${action.done}.`);
    return 0;
  };
}

/** A refusal of the service's own (an operator's action's 400 or 404), as one line, in English. */
function refusal(error: DomainError): string {
  const body = writeErrorBody(error.body, 'en') as { detail?: string; non_field_errors?: string[] };
  if (error.kind === 'not-found') return 'No such account (it may have just been deleted).';
  return body.detail ?? body.non_field_errors?.[0] ?? JSON.stringify(body);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name !== 'find' && name !== 'audit' && !ACTIONS[name]) throw new UsageError(`unknown command "${name}"`);
  const run = parse(name, args);
  loadDotEnv();
  const config = loadConfig();
  const db = await openServiceDatabase(config.databaseUrl);
  try {
    return await run(commandContext(config, db));
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
    } else if (error instanceof DomainError) {
      console.error(refusal(error));
      process.exitCode = 1;
    } else {
      console.error(error);
      process.exitCode = 1;
    }
  },
);
