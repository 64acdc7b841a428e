// docs/configuration.md lists exactly the variables the service reads, and each is declared in
// one place in src/config/: each name the code reads (under the defaults and under a
// configuration that turns every optional part on) is declared and in the docs' tables; each
// declared variable is read; each name the tables give a row of is read; and a declared default
// is the one the docs give.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError, loadConfig, VARIABLES } from '../src/config.ts';

/** Every configuration part on: S3, backups, metrics, SMTP, Mailchimp, messaging, two providers. */
const EVERYTHING_ON: Record<string, string> = {
  MEDIA_STORAGE: 's3://media/prefix',
  S3_ENDPOINT: 'https://s3.example',
  BACKUP_SCHEDULE: '0 3 * * *',
  BACKUP_LOCATION: '/var/backups/profile',
  METRICS_PORT: '9464',
  SMTP_URL: 'smtp://mail.example:587',
  MAILCHIMP_API_KEY: 'key-us1',
  MAILCHIMP_LIST_ID: 'list',
  MESSAGING_PROVIDER_ID: 'provider',
  MESSAGING_KEY_ID: 'key',
  MESSAGING_PRIVATE_KEY_FILE: '/nonexistent/key.pem',
  OIDC_PROVIDERS: 'google,apple',
  OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
  OIDC_GOOGLE_CLIENT_ID: 'web',
  OIDC_APPLE_ISSUER: 'https://appleid.apple.com',
  OIDC_APPLE_CLIENT_ID: 'web',
  OIDC_APPLE_TEAM_ID: 'team',
  OIDC_APPLE_KEY_ID: 'key',
  OIDC_APPLE_PRIVATE_KEY_FILE: '/nonexistent/AuthKey.p8',
};

const declared = Object.values(VARIABLES).flat();

/** The names loadConfig reads from `env`, whether or not their values are good. */
function namesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const watched = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
  });
  try {
    loadConfig(watched);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  }
  return read;
}

const docsFolder = new URL('../docs/', import.meta.url);
/** Backticked variable names, `<NAME>` patterns and `*` wildcards included. */
const names = (text: string) => [...text.matchAll(/`([A-Z][A-Z0-9_]*(?:<NAME>[A-Z0-9_]*)?\*?)`/g)].map((m) => m[1]!);

/** Each table row's variables: the first column's names, and every name the row mentions. */
function documented(): { named: string[]; mentioned: string[] } {
  const rows = readFileSync(new URL('configuration.md', docsFolder), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return {
    named: rows.flatMap((row) => names(row.split(' | ')[0]!)),
    mentioned: rows.flatMap((row) => names(row)),
  };
}

/** Does `pattern` (a docs or declared name: `OIDC_<NAME>_ISSUER`, `QUOTA_*`) cover `name`? */
function matches(pattern: string, name: string): boolean {
  const expression = pattern.replace('<NAME>', '[A-Z0-9]+').replace(/\*$/, '[A-Z0-9_]+');
  return new RegExp(`^${expression}$`).test(name);
}

const read = [...new Set([...namesRead({}), ...namesRead(EVERYTHING_ON)])];

test('docs/configuration.md lists exactly the variables the service reads', () => {
  const { named, mentioned } = documented();
  const undocumented = read.filter((name) => !mentioned.some((pattern) => matches(pattern, name))).sort();
  assert.deepEqual(undocumented, [], 'read by the service, missing from docs/configuration.md');
  const unread = named.filter((pattern) => !read.some((name) => matches(pattern, name))).sort();
  assert.deepEqual(unread, [], 'in docs/configuration.md, never read by the service');
});

test('each variable read is declared once in src/config/, and each declared one is read and documented', () => {
  const undeclared = read.filter((name) => !declared.some((variable) => matches(variable.name, name))).sort();
  assert.deepEqual(undeclared, [], 'read by the service, declared in no file of src/config/');
  const twice = declared.map((variable) => variable.name).filter((name, index, all) => all.indexOf(name) !== index);
  assert.deepEqual(twice, [], 'declared twice');
  const unused = declared.filter((variable) => !read.some((name) => matches(variable.name, name))).map((variable) => variable.name);
  assert.deepEqual(unused, [], 'declared in src/config/, never read');
  const { mentioned } = documented();
  const undocumented = declared
    .map((variable) => variable.name)
    .filter((name) => !mentioned.includes(name) && !mentioned.some((pattern) => matches(pattern, name)));
  assert.deepEqual(undocumented, [], 'declared in src/config/, missing from docs/configuration.md');
});

/** docs/*.md in units that state one thing: a table row, a list item, a paragraph (its lines joined). */
function docsUnits(): string[] {
  const units: string[] = [];
  for (const file of readdirSync(docsFolder).filter((name) => name.endsWith('.md'))) {
    let unit = '';
    for (const line of readFileSync(new URL(file, docsFolder), 'utf8').split('\n')) {
      const startsUnit = line.trim() === '' || line.startsWith('|') || /^\s*([-*]|\d+\.) /.test(line);
      if (startsUnit && unit !== '') {
        units.push(unit);
        unit = '';
      }
      unit += ` ${line}`;
    }
    units.push(unit);
  }
  return units;
}

test('a declared default is the one the docs give', () => {
  // Where docs/ names the variable, one of those places gives its default: a row of a table, or
  // prose such as "`QUOTA_ITEMS_PER_TOPIC` (1000)"; spaces and thousands' commas aside ("1 GiB", "10,000").
  const units = docsUnits();
  const plain = (text: string) => text.replace(/[\s,]/g, '').toLowerCase();
  const wrong = declared
    .filter((variable) => variable.default !== undefined)
    .filter((variable) => !units.some((unit) => names(unit).includes(variable.name) && plain(unit).includes(plain(variable.default!))))
    .map((variable) => `${variable.name}=${variable.default}`);
  assert.deepEqual(wrong, [], 'no place in docs/ that names the variable gives the default declared in src/config/');
});
