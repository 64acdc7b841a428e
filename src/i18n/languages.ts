// The languages the service speaks, and which of them a request asks for.

/** Every language with a catalogue in locales/; LANGUAGES picks among them. */
export const SUPPORTED_LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

export function isLanguage(value: string): value is Language {
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The best of `offered` for an Accept-Language header (RFC 9110 §12.5.4): the highest q wins,
 * the header's order breaks ties, a range matches a language by its primary subtag
 * (`de-AT` → `de`), `*` (any, as fetch sends by default) is `fallback` when offered. None
 * acceptable, or no header: `fallback`.
 */
export function negotiateLanguage(header: string | undefined, offered: readonly Language[], fallback: Language): Language {
  if (!header) return fallback;
  let best: Language | undefined;
  let bestQ = 0;
  for (const part of header.split(',').slice(0, 32)) {
    const [range = '', ...params] = part.trim().split(';');
    const q = quality(params);
    if (q <= bestQ) continue;
    const primary = range.trim().toLowerCase().split('-')[0] ?? '';
    const match = primary === '*' ? (offered.includes(fallback) ? fallback : offered[0]) : offered.find((language) => language === primary);
    if (match) {
      best = match;
      bestQ = q;
    }
  }
  return best ?? fallback;
}

function quality(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=');
    if (name?.trim().toLowerCase() !== 'q') continue;
    const q = Number(value?.trim());
    return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
  }
  return 1;
}
