// The catalogues of locales/: every language complete, and the check that stops start-up
// when one is not.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { catalogueProblems } from '../../src/i18n/catalogue-check.ts';
import { CATALOGUES, type Catalogue, DOMAINS } from '../../src/i18n/catalogues.ts';
import { formatMessage } from '../../src/i18n/format.ts';
import { type Language, negotiateLanguage, SUPPORTED_LANGUAGES } from '../../src/i18n/languages.ts';

function catalogue(api: Record<string, string>): Catalogue {
  return Object.fromEntries(DOMAINS.map((domain) => [domain, domain === 'api' ? api : {}])) as unknown as Catalogue;
}

function catalogues(en: Record<string, string>, de: Record<string, string>): Record<Language, Catalogue> {
  return { en: catalogue(en), de: catalogue(de), fr: catalogue(en), es: catalogue(en) };
}

describe('catalogues', () => {
  test('every supported language has every message of English, in ICU syntax, with the same placeholders', () => {
    assert.deepEqual(catalogueProblems(CATALOGUES, SUPPORTED_LANGUAGES), []);
  });

  test('every message formats in every language with its placeholders filled', () => {
    for (const language of SUPPORTED_LANGUAGES) {
      for (const domain of DOMAINS) {
        for (const [key, message] of Object.entries(CATALOGUES.en[domain])) {
          const values = Object.fromEntries([...message.matchAll(/\{\s*(\w+)/g)].map((match) => [match[1]!, 2]));
          const text = formatMessage(language, domain, key, values);
          assert.ok(text.length > 0, `${language}/${domain}/${key}`);
        }
      }
    }
  });

  test('a message only English has is named', () => {
    const problems = catalogueProblems(catalogues({ 'a.one': 'One', 'a.two': 'Two' }, { 'a.one': 'Eins' }), ['en', 'de']);
    assert.deepEqual(problems, ['locales/de/api.json lacks 1 message(s): a.two']);
  });

  test('a key English does not have, a message that is not ICU, and changed placeholders are named', () => {
    const problems = catalogueProblems(
      catalogues(
        { 'a.count': '{count, plural, one {# item} other {# items}}', 'a.name': 'Hello {name}', 'a.broken': 'Fine' },
        {
          'a.count': '{count, plural, one {# Eintrag} other {# Einträge}}',
          'a.name': 'Hallo {nom}',
          'a.broken': 'Kaputt {',
          'a.extra': 'Mehr',
        },
      ),
      ['en', 'de'],
    );
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems[0]!, /^locales\/de\/api\.json has 1 key\(s\) English does not: a\.extra$/);
    assert.match(problems.find((p) => p.includes('a.name'))!, /placeholders \{nom\}, English \{name\}/);
    assert.match(problems.find((p) => p.includes('a.broken'))!, /is not an ICU message/);
  });

  test('only the configured languages are checked', () => {
    assert.deepEqual(catalogueProblems(catalogues({ 'a.one': 'One' }, {}), ['en', 'fr']), []);
  });
});

describe('LANGUAGES and DEFAULT_LANGUAGE', () => {
  test('default: the four languages, English first', () => {
    const config = loadConfig({});
    assert.deepEqual(config.languages, ['en', 'de', 'fr', 'es']);
    assert.equal(config.defaultLanguage, 'en');
    assert.deepEqual(loadConfig({ LANGUAGES: 'de, fr', DEFAULT_LANGUAGE: 'FR' }).languages, ['de', 'fr']);
  });

  test('an unknown language, one named twice, or a default outside LANGUAGES stops start-up', () => {
    for (const [env, pattern] of [
      [{ LANGUAGES: 'en,it' }, /LANGUAGES must be "en", "de", "fr" or "es", got "it"/],
      [{ LANGUAGES: 'en,de,en' }, /LANGUAGES names a language twice/],
      [{ LANGUAGES: 'en,de', DEFAULT_LANGUAGE: 'fr' }, /DEFAULT_LANGUAGE "fr" is not one of LANGUAGES \(en,de\)/],
    ] as const) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && pattern.test(error.message),
      );
    }
  });
});

describe('negotiating a language', () => {
  const offered: Language[] = ['en', 'de', 'fr', 'es'];
  test('the highest q wins, ties by order, regions match by their primary subtag', () => {
    assert.equal(negotiateLanguage('de-AT,de;q=0.9,en;q=0.8', offered, 'en'), 'de');
    assert.equal(negotiateLanguage('it, fr;q=0.5, es;q=0.7', offered, 'en'), 'es');
    assert.equal(negotiateLanguage('FR-ca', offered, 'en'), 'fr');
    assert.equal(negotiateLanguage('es;q=0.5, de;q=0.5', offered, 'en'), 'es');
  });
  test('nothing acceptable, q=0, a malformed header or none: the fallback', () => {
    assert.equal(negotiateLanguage(undefined, offered, 'de'), 'de');
    assert.equal(negotiateLanguage('', offered, 'de'), 'de');
    assert.equal(negotiateLanguage('it, pt-BR', offered, 'fr'), 'fr');
    assert.equal(negotiateLanguage('de;q=0', offered, 'en'), 'en');
    assert.equal(negotiateLanguage(';;,,=q', offered, 'es'), 'es');
    assert.equal(negotiateLanguage('de;q=abc', offered, 'en'), 'en');
    assert.equal(negotiateLanguage('fr', ['en', 'de'], 'en'), 'en');
  });
  test('* is the fallback when it is offered, else the first offered', () => {
    assert.equal(negotiateLanguage('it, *;q=0.1', ['de', 'en'], 'en'), 'en');
    assert.equal(negotiateLanguage('*', ['de', 'fr'], 'en'), 'de');
    assert.equal(negotiateLanguage('fr;q=0.5, *', ['de', 'fr', 'en'], 'en'), 'en');
  });
});
