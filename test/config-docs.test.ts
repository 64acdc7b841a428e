// docs/configuration.md lists exactly the variables the service reads: each one the code reads
// (under the defaults and under a configuration that turns every optional part on) is in its
// tables, and each one its tables name is read by the code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

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
};

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

/** Each table row's variables: the first column's names, and every name the row mentions. */
function documented(): { named: string[]; mentioned: string[] } {
  const rows = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  const names = (text: string) => [...text.matchAll(/`([A-Z][A-Z0-9_]*(?:<NAME>[A-Z0-9_]*)?\*?)`/g)].map((m) => m[1]!);
  return {
    named: rows.flatMap((row) => names(row.split(' | ')[0]!)),
    mentioned: rows.flatMap((row) => names(row)),
  };
}

function matches(pattern: string, name: string): boolean {
  const expression = pattern.replace('<NAME>', '[A-Z0-9]+').replace(/\*$/, '[A-Z0-9_]+');
  return new RegExp(`^${expression}$`).test(name);
}

test('docs/configuration.md lists exactly the variables the service reads', () => {
  const read = new Set([...namesRead({}), ...namesRead(EVERYTHING_ON)]);
  const { named, mentioned } = documented();
  const undocumented = [...read].filter((name) => !mentioned.some((pattern) => matches(pattern, name))).sort();
  assert.deepEqual(undocumented, [], 'read by the service, missing from docs/configuration.md');
  const unread = named.filter((pattern) => ![...read].some((name) => matches(pattern, name))).sort();
  assert.deepEqual(unread, [], 'in docs/configuration.md, never read by the service');
});
