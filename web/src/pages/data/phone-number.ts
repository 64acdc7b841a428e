// An emergency contact's phone number as a person types it ("+44 20 7946 0018", "(555)
// 123-4567") and as the API keeps it: the same number, so that the responder's "Call" dials it.
// Only the separators people write go (spaces, dashes, dots, brackets); a leading "+" stays,
// since without it +44 20… would dial 44 20… as a local number. The API's rule is repeated
// here so that the form can say what is wrong before sending.
import type { ApiResult } from '../../api/client.ts';
import { t } from '../../i18n/language.ts';

/** The API's pattern: 9 to 15 digits (after an optional leading 1), or "+" and 7 to 15 digits. */
const API_PATTERN = /^(1?\d{9,15}|\+[1-9]\d{6,14})$/;

/** The number as the API keeps it: the separators removed, nothing else changed. */
export function phoneNumberToSave(typed: string): string {
  return typed.replace(/[\s().-]/g, '');
}

/** Why `number` (as phoneNumberToSave gives it) cannot be saved, or null when it can. */
export function phoneNumberProblem(number: string): string | null {
  if (API_PATTERN.test(number)) return null;
  if (!/^\+?\d+$/.test(number)) {
    return t('data.phone.onlyDigits');
  }
  if (number.startsWith('+')) {
    return number.startsWith('+0') ? t('data.phone.countryCodeZero') : t('data.phone.internationalLength');
  }
  return t('data.phone.length');
}

/**
 * What the API would answer for the contact `body`, worked out here: a refusal with a message
 * under each phone field that cannot be a number, or null when both may be sent.
 */
export function refusePhoneNumbers<T>(body: { phone_number?: string; alt_phone_number?: string }): ApiResult<T> | null {
  const fields: Record<string, string[]> = {};
  for (const name of ['phone_number', 'alt_phone_number'] as const) {
    const value = body[name];
    // The other number may be empty; the first one is required (an empty one: the API's word).
    const problem = value ? phoneNumberProblem(value) : null;
    if (problem) fields[name] = [problem];
  }
  if (Object.keys(fields).length === 0) return null;
  return { error: fields, response: new Response(null, { status: 400 }) };
}
