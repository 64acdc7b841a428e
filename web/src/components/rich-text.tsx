// Sentences of the catalogues with an element inside (a link, a badge), and controls whose
// visible word is shorter than what a screen reader hears ("Delete" → "Delete entry Bread"):
// both in the reader's language, each language free to order its words its own way.
import type { ComponentChildren } from 'preact';
import { type MessageKey, type MessageValues, t } from '../i18n/language.ts';
import { Hidden } from './page.tsx';

/** Stands for a part in a formatted message: a character no message contains. */
const MARK = '\uE000';

/**
 * The message `key` with `parts` (elements) where its placeholders of the same names are:
 * "Start on {link} first." with `{ link: <a href="/data">Your data</a> }`.
 */
export function Rich({ k, values, parts }: { k: MessageKey; values?: MessageValues; parts: Record<string, ComponentChildren> }) {
  const marked = Object.fromEntries(Object.keys(parts).map((name) => [name, `${MARK}${name}${MARK}`]));
  const pieces = t(k, { ...values, ...marked }).split(MARK);
  // Odd pieces are the parts' names (between two marks), even ones the text around them.
  return <>{pieces.map((piece, i) => (i % 2 === 1 ? <span key={i}>{parts[piece]}</span> : piece))}</>;
}

/**
 * A control's words: `shown` is seen, `heard` is its whole accessible name ("Delete" seen,
 * "Delete entry Bread" heard), each a sentence of its own in the catalogue. When the name
 * starts with the word seen (English, mostly), the rest is added unseen, so the control's text
 * is its name ("Delete<hidden> entry Bread</hidden>"); otherwise ("Listenpunkt Bread löschen")
 * the word seen is hidden from screen readers and the name said instead.
 */
export function Named({ shown, heard }: { shown: string; heard: string }) {
  if (heard.startsWith(shown)) {
    return (
      <>
        {shown}
        <Hidden>{heard.slice(shown.length)}</Hidden>
      </>
    );
  }
  return (
    <>
      <span aria-hidden="true">{shown}</span>
      <Hidden>{heard}</Hidden>
    </>
  );
}
