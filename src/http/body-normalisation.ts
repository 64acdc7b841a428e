// What happens to every request body before it is validated (docs/api-conventions.md): strings are
// trimmed (passwords excepted), and one rule holds for every string, whichever database
// stores it: no control characters but tab and line breaks, no unpaired surrogates.
// PostgreSQL refuses U+0000 in text and SQLite would store it; neither is text a person
// wrote. The walk is iterative and refuses bodies nested deeper than any shape we accept, so
// no body can exhaust the stack.
import { type FieldErrors, message } from '../errors.ts';
import { HttpError } from './errors.ts';
import { placeFieldError } from './validation-errors.ts';

/** Fields kept exactly as sent: every other string in a body is trimmed. */
const UNTRIMMED_FIELDS = new Set(['password', 'old_password', 'new_password']);

/** The deepest body any operation takes is a few levels (item → list_content → entries → entry). */
export const MAX_BODY_DEPTH = 32;

// C0 controls except tab, line feed and carriage return; DEL; C1 controls.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export const UNCLEAN_TEXT = 'http.uncleanText';

export function isCleanText(text: string): boolean {
  return !CONTROL_CHARACTERS.test(text) && text.isWellFormed();
}

/**
 * Trims the body's strings in place and returns the fields that break the text rule, in the
 * shape of a 400 body (empty when there are none). Throws 400 for a body nested too deeply.
 */
export function normaliseBody(body: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const pending: { container: Record<string, unknown>; key: string; path: string[] }[] = [];
  const push = (container: Record<string, unknown>, path: string[]) => {
    if (path.length >= MAX_BODY_DEPTH) {
      throw new HttpError(400, message('http.nestedTooDeep', { max: MAX_BODY_DEPTH }));
    }
    for (const key of Object.keys(container)) pending.push({ container, key, path: [...path, key] });
  };
  if (isContainer(body)) push(body, []);
  while (pending.length > 0) {
    const { container, key, path } = pending.pop()!;
    const value = container[key];
    if (typeof value === 'string') {
      const text = UNTRIMMED_FIELDS.has(key) ? value : value.trim();
      container[key] = text;
      if (!isCleanText(text)) placeFieldError(errors, path, UNCLEAN_TEXT);
    } else if (isContainer(value)) {
      push(value, path);
    }
  }
  return errors;
}

function isContainer(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Buffer.isBuffer(value);
}
