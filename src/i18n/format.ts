// A catalogue's message, formatted in a language (ICU message syntax, by intl-messageformat).
import { IntlMessageFormat } from 'intl-messageformat';
import { CATALOGUES, type Domain } from './catalogues.ts';
import type { Language } from './languages.ts';

export type MessageValues = Readonly<Record<string, string | number | Date>>;

// One compiled format per language and message: bounded by the catalogues.
const compiled = new Map<string, IntlMessageFormat>();

/** The message `key` of `domain` in `language`, its placeholders filled from `values`. */
export function formatMessage(language: Language, domain: Domain, key: string, values?: MessageValues): string {
  const id = `${language}/${domain}/${key}`;
  let format = compiled.get(id);
  if (format === undefined) {
    const message = CATALOGUES[language][domain][key];
    if (message === undefined) throw new Error(`No message "${key}" in ${language}/${domain}.json`);
    format = new IntlMessageFormat(message, language);
    compiled.set(id, format);
  }
  return String(format.format(values));
}
