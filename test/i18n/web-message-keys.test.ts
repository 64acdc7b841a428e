// The web client's message keys, read from its source (no browser): every key a `t('…')` call
// names is in the English web-*.json (the typecheck catches a typed key; this catches one the
// types let through, such as a key built at run time), every `t(` call names its key as a
// literal or through a value typed MessageKey, and every message of web-common and web-account
// is used somewhere (a key nobody uses is a sentence nobody translates on purpose).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const WEB = join(ROOT, 'web', 'src');

function sources(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path: path.slice(ROOT.length + 1), text: readFileSync(path, 'utf8') };
    });
}

function english(domain: string): Record<string, string> {
  return JSON.parse(readFileSync(join(ROOT, 'locales', 'en', `${domain}.json`), 'utf8'));
}

const DOMAINS = ['web-common', 'web-account', 'web-data', 'web-admin'];
const KNOWN = new Set(DOMAINS.flatMap((domain) => Object.keys(english(domain))));
const FILES = sources(WEB);

/** Each `t(` call of the source: the file, its line, and its first argument as written. */
function calls(): { where: string; argument: string }[] {
  const found: { where: string; argument: string }[] = [];
  for (const { path, text } of FILES) {
    for (const match of text.matchAll(/(?<![\w.])t\(\s*([^,)]+)/g)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ where: `${path}:${line}`, argument: match[1]!.trim() });
    }
  }
  return found;
}

describe('the web client’s message keys', () => {
  test('the scan finds the calls (it can fail)', () => {
    const all = calls();
    assert.ok(all.length > 100, `only ${all.length} t( calls found`);
    assert.ok(
      all.some((call) => call.argument === "'signIn.title'"),
      'the sign-in page’s title is among them',
    );
  });

  test('every key named in a t() call is in the English catalogues', () => {
    const missing = calls()
      .filter((call) => /^['"]/.test(call.argument))
      .filter((call) => !KNOWN.has(call.argument.slice(1, -1)))
      .map((call) => `${call.where}: ${call.argument}`);
    assert.deepEqual(missing, []);
  });

  test('a t() call names its key as a literal, never a string built at run time', () => {
    const built = calls()
      .filter((call) => /^[`]/.test(call.argument) || call.argument.includes('+'))
      .map((call) => `${call.where}: ${call.argument}`);
    assert.deepEqual(built, []);
  });

  test('every key-like literal in the source is a known key', () => {
    // Keys kept in tables (the settings menu, the activity sentences) are plain literals.
    const keyLike =
      /'((?:activity|settingsNav|settings|sessions|mfa|passkeys|identities|emergency|signIn|signUp|verify|field|nav)\.[A-Za-z.]+)'/g;
    const unknown = FILES.flatMap(({ path, text }) =>
      [...text.matchAll(keyLike)]
        .map((match) => match[1]!)
        .filter((key) => !KNOWN.has(key))
        .map((key) => `${path}: ${key}`),
    );
    assert.deepEqual(unknown, []);
  });

  test('every message of web-common and web-account is used in the source', () => {
    const all = FILES.map((file) => file.text).join('\n');
    const unused = ['web-common', 'web-account'].flatMap((domain) =>
      Object.keys(english(domain))
        .filter((key) => !all.includes(`'${key}'`))
        .map((key) => `${domain}: ${key}`),
    );
    assert.deepEqual(unused, []);
  });
});
