// What the forms of an emergency link send (docs/emergency-links.md): its label, its expiry — a date, at
// whose end (the person's own time) the link stops working, or "never" — and its PIN. And how
// a link is named and its times shown on the page.
import type { EmergencyLink } from '../../api/types.ts';
import { text } from '../../components/form.tsx';
import { formatDateTime, t } from '../../i18n/language.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a date input holds it (YYYY-MM-DD, local), '' for none. */
export function dateValue(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** The last moment of a date input's day, local, as the API takes it; undefined for no date. */
export function endOfDay(date: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999).toISOString();
}

/** Today a year on, as a date input holds it: the service's own default expiry. */
export function aYearFromToday(): string {
  const at = new Date();
  at.setFullYear(at.getFullYear() + 1);
  return dateValue(at.toISOString());
}

/** A time as the page shows it: the reader's locale's date and time. */
export function shownTime(iso: string): string {
  return formatDateTime(iso);
}

/** What names a link on the page and in its buttons: its label, or when it was made. */
export function linkName(link: Pick<EmergencyLink, 'label' | 'created_at'>): string {
  return link.label || t('data.links.unnamed', { when: shownTime(link.created_at) });
}

/**
 * What the link shows, as the choice fieldsets (emergency-link-choices.tsx) hold it: null for
 * every one ("also those added later" ticked), else the ids ticked. Left out when the form has
 * no such fieldset.
 */
export function choicesBody(data: FormData) {
  const chosen = (kind: string) => (data.get(`all_${kind}s`) ? null : data.getAll(kind).map((value) => Number(value)));
  const has = (kind: string) => data.has(`all_${kind}s`) || data.has(kind) || data.has(`shown_${kind}s`);
  return {
    ...(has('item') && { emergency_items: chosen('item') }),
    ...(has('contact') && { emergency_contacts: chosen('contact') }),
  };
}

/** The create's body: an empty date is left out (the service's default, a year), an empty PIN too. */
export function createBody(data: FormData) {
  const pin = text(data, 'pin');
  const date = text(data, 'expires_at');
  // A date the browser could not make sense of goes as typed: the service says what is wrong.
  const expires = data.get('never') ? null : date === '' ? undefined : (endOfDay(date) ?? date);
  return {
    label: text(data, 'label'),
    ...(expires !== undefined && { expires_at: expires }),
    ...(pin !== '' && { pin }),
    ...choicesBody(data),
  };
}

/**
 * A change's body: only what the form changes. The expiry: "never" → null; a date other than
 * the link's → the end of that day; no date on a link that had none → a year from today. The
 * PIN: a new one, null when "Remove the PIN" is ticked, else left as it is.
 */
export function changeBody(data: FormData, link: EmergencyLink) {
  const date = text(data, 'expires_at');
  let expires: string | null | undefined;
  if (data.get('never')) expires = null;
  else if (date === '') expires = link.expires_at === null ? endOfDay(aYearFromToday()) : undefined;
  else if (date !== dateValue(link.expires_at)) expires = endOfDay(date) ?? date;
  const pin = text(data, 'pin');
  return {
    label: text(data, 'label'),
    ...(expires !== undefined && { expires_at: expires }),
    ...(data.get('remove_pin') ? { pin: null } : pin !== '' ? { pin } : {}),
    ...choicesBody(data),
  };
}
