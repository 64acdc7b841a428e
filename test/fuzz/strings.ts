// Strings for the fuzzer: clean text a person could write (RTL marks, 4-byte characters,
// combining marks), and the hostile kind (NUL and other controls, lone surrogates, huge
// lengths, numbers in disguise).
import fc from 'fast-check';

/** Characters that are text, however unusual: each is one code point. */
const CLEAN_SPECIALS = [
  '\u202e',
  '\u200f',
  '\u200b',
  '\ufeff',
  '😀',
  '𝕏',
  '🏳',
  'é',
  'e\u0301',
  '中',
  'İ',
  'ß',
  'ﬀ',
  '١',
  '\t',
  '\n',
  ' ',
  '"',
  '\\',
  '<',
  '%',
  "'",
];

export const cleanUnit: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 -_.'), weight: 6 },
  { arbitrary: fc.constantFrom(...CLEAN_SPECIALS), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: 1 }), weight: 1 },
);

/** Text at most `max` code points long (how the schemas count), not blank when `min` > 0. */
export function cleanText(min: number, max: number): fc.Arbitrary<string> {
  const longest = Math.min(max, 24);
  return fc.string({ unit: cleanUnit, minLength: Math.min(min, longest), maxLength: longest }).map((text) => {
    const fixed = min > 0 && text.trim() === '' ? `x${text}` : text;
    return [...fixed].slice(0, max).join('');
  });
}

export const NASTY_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f',
  '\u0008',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u009f',
  '\ud800',
  'x\udfffy',
  '\udc00\ud800',
  '\ud83d',
  '\u202egnp.exe',
  '\u200f\u200e',
  '\u2028\u2029',
  '😀'.repeat(255),
  '😀'.repeat(256),
  '\ufeff',
  '   ',
  '',
  '\t\n\r',
  'a'.repeat(256),
  'b'.repeat(10_001),
  'null',
  'true',
  '0',
  '-0',
  'NaN',
  'Infinity',
  '1e309',
  '99999999999999999999',
  '1.5',
  '0x10',
  "' OR 1=1 --",
  '%00',
  '%s%n',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '${7*7}',
  '__proto__',
  'constructor',
  'toString',
  'İ'.repeat(100),
  'Z\u0351\u0352\u0353\u0354\u0355'.repeat(20),
];

/** Hostile strings, and clean ones around a hostile character. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc
    .tuple(cleanText(0, 6), fc.constantFrom('\u0000', '\u0007', '\ud800', '\udfff', '\u202e', '\u009b', '𝕏'), cleanText(0, 6))
    .map(([a, b, c]) => a + b + c),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: 256, max: 70_000 }).map((length) => 'x'.repeat(length)),
);

export const nastyEmail: fc.Arbitrary<string> = fc.constantFrom(
  'a\u0000@example.com',
  'ü@example.com',
  'a@example.com\n',
  `${'x'.repeat(250)}@example.com`,
  'a@b',
  '@',
  'a@@example.com',
  '"a b"@example.com',
  'A@EXAMPLE.COM',
  ' padded@example.com ',
  'a@example.com\u202e',
  'a\ud800@example.com',
  'a@xn--80ak6aa92e.com',
);

/** Control characters (tab and line breaks excepted), DEL, C1 controls and lone surrogates are refused by the text rule. */
export function isCleanText(text: string): boolean {
  return !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/.test(text) && text.isWellFormed();
}
