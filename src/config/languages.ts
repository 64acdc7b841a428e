// Languages: which of the catalogued languages the service speaks, and the one it falls back to.
// A language whose catalogue lacks a message stops start-up, so nothing is ever half-translated.
import { CATALOGUES } from '../i18n/catalogues.ts';
import { catalogueProblems } from '../i18n/catalogue-check.ts';
import { type Language, SUPPORTED_LANGUAGES } from '../i18n/languages.ts';
import { choice } from './parsers.ts';
import { ConfigError, type Parser, type Settings, type Values, type Variables } from './variable.ts';

const language = choice(SUPPORTED_LANGUAGES);

/** Comma-separated languages, each one of SUPPORTED_LANGUAGES, at least one, none twice. */
const languageList: Parser<Language[]> = {
  parse(value, name) {
    const languages = value.split(',').map((word) => language.parse(word.trim(), name));
    if (new Set(languages).size !== languages.length) throw new ConfigError(`${name} names a language twice: "${value}"`);
    return languages;
  },
  placeholder: ['en'],
};

export const LANGUAGES = {
  languages: {
    name: 'LANGUAGES',
    default: 'en,de,fr,es',
    parser: languageList,
    doc: 'the languages of e-mails, pages and error sentences, of en, de, fr and es',
  },
  defaultLanguage: {
    name: 'DEFAULT_LANGUAGE',
    default: 'en',
    parser: language,
    doc: 'the language of a request or account that asks for none of LANGUAGES',
  },
} satisfies Variables;

export type LanguagesConfig = Values<typeof LANGUAGES>;

export function loadLanguages(settings: Settings): LanguagesConfig {
  const values = settings.readAll(LANGUAGES);
  if (!values.languages.includes(values.defaultLanguage)) {
    settings.problem(`DEFAULT_LANGUAGE "${values.defaultLanguage}" is not one of LANGUAGES (${values.languages.join(',')})`);
  }
  for (const problem of catalogueProblems(CATALOGUES, values.languages)) settings.problem(`LANGUAGES: ${problem}`);
  return values;
}
