// The language the web client speaks: the reader's choice (the switcher, kept in this browser),
// else the best of the browser's languages, else English. Its catalogues (locales/<language>/
// web-*.json) are loaded before the first render and on a switch; <html lang> follows.
import { IntlMessageFormat } from 'intl-messageformat';
import type account from '../../../locales/en/web-account.json';
import type admin from '../../../locales/en/web-admin.json';
import type common from '../../../locales/en/web-common.json';
import type data from '../../../locales/en/web-data.json';

export const LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's name in itself, for the switcher and for "written in …". */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español' };

/** A key of the web client's messages (English is the source of the keys). */
export type MessageKey = keyof typeof common | keyof typeof account | keyof typeof data | keyof typeof admin;
export type MessageValues = Record<string, string | number | Date>;

const STORAGE_KEY = 'language';
const catalogueFiles = import.meta.glob<Record<string, string>>('../../../locales/*/web-*.json', { import: 'default' });

let current: Language = 'en';
let messages: Record<string, string> = {};
const compiled = new Map<string, IntlMessageFormat>();

export function isLanguage(value: string | null | undefined): value is Language {
  return (LANGUAGES as readonly (string | null | undefined)[]).includes(value);
}

/**
 * The languages the service speaks (its LANGUAGES, perhaps fewer than the client has
 * catalogues for), first its default: the service names them in every page it serves,
 * `<meta name="languages" content="de,en">` (src/http/web-client.ts). Without it, all of them.
 */
export function offeredLanguages(): Language[] {
  const named = document
    .querySelector('meta[name="languages"]')
    ?.getAttribute('content')
    ?.split(',')
    .map((word) => word.trim())
    .filter(isLanguage);
  return named && named.length > 0 ? named : [...LANGUAGES];
}

/**
 * The reader's choice, else the first of the browser's languages the service speaks (by
 * primary subtag), else the service's default.
 */
export function preferredLanguage(): Language {
  const chosen = languageChosenHere();
  if (chosen !== null) return chosen;
  const offered = offeredLanguages();
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary) && offered.includes(primary)) return primary;
  }
  return offered[0] ?? 'en';
}

/** The language the reader chose in this browser (the switcher), if the service still speaks it; else null. */
export function languageChosenHere(): Language | null {
  const chosen = localStorage.getItem(STORAGE_KEY);
  return isLanguage(chosen) && offeredLanguages().includes(chosen) ? chosen : null;
}

export function currentLanguage(): Language {
  return current;
}

/** Loads `language`'s catalogues and makes it the one spoken; `remember`: the reader chose it. */
export async function switchLanguage(language: Language, remember = false): Promise<void> {
  const prefix = `../../../locales/${language}/`;
  const loaded = await Promise.all(
    Object.entries(catalogueFiles)
      .filter(([path]) => path.startsWith(prefix))
      .map(([, load]) => load()),
  );
  messages = Object.assign({}, ...loaded);
  compiled.clear();
  current = language;
  document.documentElement.lang = language;
  if (remember) localStorage.setItem(STORAGE_KEY, language);
  for (const listener of listeners) listener(language);
}

const listeners = new Set<(language: Language) => void>();

/** Calls `listener` after each switch; returns what stops it. */
export function onLanguageSwitch(listener: (language: Language) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The message `key` in the current language, its placeholders filled from `values`. */
export function t(key: MessageKey, values?: MessageValues): string {
  let format = compiled.get(key);
  if (format === undefined) {
    const message = messages[key];
    if (message === undefined) return key;
    format = new IntlMessageFormat(message, current);
    compiled.set(key, format);
  }
  return String(format.format(values));
}

/** A moment as the reader's locale writes it (date and time). */
export function formatDateTime(iso: string | Date): string {
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** How long ago (or ahead) a moment is, in words of the current language: "3 minutes ago", "vor 3 Minuten". */
export function formatRelative(iso: string | Date, now: Date = new Date()): string {
  const seconds = (new Date(iso).getTime() - now.getTime()) / 1000;
  const format = new Intl.RelativeTimeFormat(current, { numeric: 'auto' });
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 7],
    ['week', 4.35],
    ['month', 12],
  ];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}

/** A day as the reader's locale writes it. */
export function formatDate(iso: string | Date): string {
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium' }).format(new Date(iso));
}
