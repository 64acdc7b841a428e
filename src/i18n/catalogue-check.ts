// What keeps a language from being spoken: a message English has and it lacks, a key English
// does not have, a message that is not ICU syntax, or one whose placeholders differ from
// English's (a translation that drops `{count}` would print a wrong sentence, not fail).
import { IntlMessageFormat } from 'intl-messageformat';
import { type Catalogue, DOMAINS } from './catalogues.ts';
import type { Language } from './languages.ts';

/** Each problem of `languages`' catalogues measured against English's, as one line. */
export function catalogueProblems(catalogues: Readonly<Record<Language, Catalogue>>, languages: readonly Language[]): string[] {
  const problems: string[] = [];
  for (const domain of DOMAINS) {
    const source = catalogues.en[domain];
    const sourceArguments = new Map(Object.entries(source).map(([key, message]) => [key, argumentsOf(message, 'en')]));
    for (const language of new Set<Language>(['en', ...languages])) {
      const messages = catalogues[language][domain];
      const file = `locales/${language}/${domain}.json`;
      const missing = Object.keys(source).filter((key) => typeof messages[key] !== 'string');
      if (missing.length > 0) problems.push(`${file} lacks ${missing.length} message(s): ${listed(missing)}`);
      const unknown = Object.keys(messages).filter((key) => !Object.hasOwn(source, key));
      if (unknown.length > 0) problems.push(`${file} has ${unknown.length} key(s) English does not: ${listed(unknown)}`);
      for (const [key, message] of Object.entries(messages)) {
        const expected = sourceArguments.get(key);
        if (expected === undefined || typeof message !== 'string') continue;
        const found = argumentsOf(message, language);
        if (found instanceof Error) problems.push(`${file}: "${key}" is not an ICU message (${found.message})`);
        else if (!(expected instanceof Error) && !sameSet(found, expected)) {
          problems.push(`${file}: "${key}" has the placeholders {${[...found].join('}, {')}}, English {${[...expected].join('}, {')}}`);
        }
      }
    }
  }
  return problems;
}

function listed(keys: string[]): string {
  return keys.length > 5 ? `${keys.slice(0, 5).join(', ')}, …` : keys.join(', ');
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((name) => b.has(name));
}

// An element of intl-messageformat's AST: `type` 0 is literal text and 7 a plural's `#`; every
// other type (argument, number, date, time, select, plural, tag) names its argument in `value`.
type Element = { type: number; value?: unknown; options?: Record<string, { value: Element[] }>; children?: Element[] };
const LITERAL = 0;
const POUND = 7;

/** The names of a message's placeholders (arguments, plurals, selects, tags), or its parse error. */
function argumentsOf(message: string, language: Language): Set<string> | Error {
  let ast: Element[];
  try {
    ast = new IntlMessageFormat(message, language).getAst() as Element[];
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  const names = new Set<string>();
  const walk = (elements: Element[]): void => {
    for (const element of elements) {
      if (element.type !== LITERAL && element.type !== POUND && typeof element.value === 'string') names.add(element.value);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      if (element.children) walk(element.children);
    }
  };
  walk(ast);
  return names;
}
