// The parsers the concerns share: durations, sizes, counts, rate limits, URLs, keys, choices.
// Each throws a ConfigError naming the variable, with the text it got.
import { ConfigError, type Parser } from './variable.ts';

export interface RateLimit {
  max: number;
  windowMs: number;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** "3600", "30d", "90s", "1h" → milliseconds. A bare number is seconds. */
export function parseDuration(name: string, value: string): number {
  const match = /^(\d+)\s*(ms|s|m|h|d|w)?$/i.exec(value.trim());
  if (!match) throw new ConfigError(`${name} must be a number of seconds or a value with a unit (ms, s, m, h, d, w), got "${value}"`);
  return Number(match[1]) * DURATION_UNITS[(match[2] ?? 's').toLowerCase()]!;
}

/** "10MiB", "5MB", "1024" → bytes. */
export function parseSize(name: string, value: string): number {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(value.trim());
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined)
    throw new ConfigError(`${name} must be a number of bytes or a value with a unit (KiB, MiB, GiB), got "${value}"`);
  return Number(match[1]) * unit;
}

/** "5/5m" → at most 5 in 5 minutes. */
export function parseRateLimit(name: string, value: string): RateLimit {
  const match = /^(\d+)\s*\/\s*(\S+)$/.exec(value.trim());
  if (!match || Number(match[1]) < 1) throw new ConfigError(`${name} must look like "5/5m" (count per window), got "${value}"`);
  return { max: Number(match[1]), windowMs: parseDuration(name, match[2]!) };
}

export function parseInteger(name: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

export function parseUrl(name: string, value: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${value}"`);
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(`${name} must start with ${protocols.join(' or ')}, got "${value}"`);
  return value;
}

/** The text as it is. */
export const text: Parser<string> = { parse: (value) => value, placeholder: '' };

export const duration: Parser<number> = { parse: (value, name) => parseDuration(name, value), placeholder: 1 };

/** A duration of at least 1 ms. */
export const positiveDuration: Parser<number> = {
  parse(value, name) {
    const ms = parseDuration(name, value);
    if (ms < 1) throw new ConfigError(`${name} must be more than zero`);
    return ms;
  },
  placeholder: 1,
};

export const size: Parser<number> = { parse: (value, name) => parseSize(name, value), placeholder: 1 };

export const rateLimit: Parser<RateLimit> = { parse: (value, name) => parseRateLimit(name, value), placeholder: { max: 1, windowMs: 1 } };

export function integer(min: number, max?: number): Parser<number> {
  return { parse: (value, name) => parseInteger(name, value, min, max), placeholder: min };
}

export function url(protocols: string[]): Parser<string> {
  return { parse: (value, name) => parseUrl(name, value, protocols), placeholder: '' };
}

/** `on` or `off` (any case) → true or false. */
export const onOff: Parser<boolean> = {
  parse(value, name) {
    const lower = value.toLowerCase();
    if (lower !== 'on' && lower !== 'off') throw new ConfigError(`${name} must be "on" or "off", got "${lower}"`);
    return lower === 'on';
  },
  placeholder: false,
};

/** One of a few lower-case words, in any case: `"auto", "on" or "off"`. */
export function choice<const W extends string>(words: readonly W[]): Parser<W> {
  const quoted = words.map((word) => `"${word}"`);
  const listed = `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  return {
    parse(value, name) {
      const lower = value.toLowerCase();
      if (!(words as readonly string[]).includes(lower)) throw new ConfigError(`${name} must be ${listed}, got "${lower}"`);
      return lower as W;
    },
    placeholder: words[0]!,
  };
}

/** Comma-separated 32-byte keys, base64 or hex (`openssl rand -base64 32`). */
export const keys: Parser<Buffer[]> = {
  parse(value, name) {
    return value.split(',').map((text) => {
      const trimmed = text.trim();
      const hex = /^[0-9a-f]{64}$/i.test(trimmed);
      const key = Buffer.from(trimmed, hex ? 'hex' : 'base64');
      // Buffer.from skips what is not base64; a key that does not read back the same was not base64.
      const readsBack = hex || key.toString('base64').replace(/=+$/, '') === trimmed.replace(/=+$/, '');
      if (key.length !== 32 || !readsBack) {
        throw new ConfigError(`${name} must be 32-byte keys in base64 or hex, comma-separated (e.g. from "openssl rand -base64 32")`);
      }
      return key;
    });
  },
  placeholder: [],
};
