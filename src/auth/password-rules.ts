// The password validators of docs/accounts.md: length 8–128, not entirely numeric, not a common
// password (zxcvbn-ts's list of ~49,000), not too similar to the e-mail address or names.
import { type Message, message } from '../errors.ts';
import { MAX_PASSWORD_LENGTH } from './passwords.ts';

const MIN_LENGTH = 8;
const MAX_SIMILARITY = 0.7;

let commonPasswords: Promise<Set<string>> | undefined;

// Loaded on first use: the list is only needed when a password is set, and costs memory.
async function isCommon(password: string): Promise<boolean> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase())),
  );
  return (await commonPasswords).has(password.toLowerCase());
}

/** Ratcliff/Obershelp similarity (Python's SequenceMatcher.ratio), 0 to 1. */
export function similarity(a: string, b: string): number {
  if (a.length + b.length === 0) return 1;
  const matches = (s: string, t: string): number => {
    if (!s || !t) return 0;
    let best = 0;
    let bestS = 0;
    let bestT = 0;
    for (let i = 0; i < s.length; i++) {
      for (let j = 0; j < t.length; j++) {
        let k = 0;
        while (i + k < s.length && j + k < t.length && s[i + k] === t[j + k]) k++;
        if (k > best) {
          best = k;
          bestS = i;
          bestT = j;
        }
      }
    }
    if (best === 0) return 0;
    return best + matches(s.slice(0, bestS), t.slice(0, bestT)) + matches(s.slice(bestS + best), t.slice(bestT + best));
  };
  return (2 * matches(a, b)) / (a.length + b.length);
}

export interface PasswordContext {
  email?: string;
  firstName?: string;
  lastName?: string;
}

/** The reasons a password is refused; empty when it is acceptable. */
export async function passwordProblems(password: string, context: PasswordContext = {}): Promise<Message[]> {
  const problems: Message[] = [];
  if (password.length < MIN_LENGTH) problems.push(message('passwords.tooShort', { min: MIN_LENGTH }));
  if (password.length > MAX_PASSWORD_LENGTH) {
    problems.push(message('passwords.tooLong', { max: MAX_PASSWORD_LENGTH }));
    return problems;
  }
  if (/^\d+$/.test(password)) problems.push('passwords.entirelyNumeric');
  if (await isCommon(password)) problems.push('passwords.tooCommon');
  const lower = password.toLowerCase();
  const attributes: Array<[Message, string | undefined]> = [
    ['passwords.tooSimilarToEmail', context.email],
    ['passwords.tooSimilarToFirstName', context.firstName],
    ['passwords.tooSimilarToLastName', context.lastName],
  ];
  for (const [label, value] of attributes) {
    if (!value) continue;
    const parts = [value, ...value.split(/\W+/)].map((p) => p.toLowerCase()).filter((p) => p.length >= 3);
    if (parts.some((part) => similarity(lower, part) >= MAX_SIMILARITY)) {
      problems.push(label);
      break;
    }
  }
  return problems;
}
