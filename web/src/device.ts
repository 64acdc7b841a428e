// A browser's User-Agent header as a person reads it: "Chrome on Linux". The sessions page, the
// security log and an emergency link's views show it, with the header itself as the title.
import { t } from './i18n/language.ts';

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(HeadlessChrome|Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** "Chrome on Linux" for a browser's User-Agent header; what is not recognised, as it is. */
export function deviceOf(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (!browser) return userAgent;
  return system ? t('activity.device', { browser, system }) : browser;
}

/** Whether a User-Agent header is a phone's browser: an iPhone, or a browser that says it is mobile (Android phones do; tablets do not). */
export function isPhone(userAgent: string | null | undefined): boolean {
  return !!userAgent && /\b(iPhone|iPod|Windows Phone)\b|\bMobi/.test(userAgent);
}
