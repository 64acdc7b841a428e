// The API's listener and what it answers as: address, public URL, proxies, browsers' origins,
// overload, the web client's files.
import { join, resolve } from 'node:path';
import { duration, integer, text, url } from './parsers.ts';
import { ConfigError, type Parser, type Settings, type Variables } from './variable.ts';

export interface HttpConfig {
  port: number;
  host: string;
  /** No trailing slash. */
  publicUrl: string;
  trustProxy: boolean | string | number;
  /** Origins whose pages may call the API from a browser (CORS_ORIGINS); empty: none; ['*']: any. */
  corsOrigins: string[];
  /** Event-loop delay above which requests get 503 (0: never). */
  overloadEventLoopDelayMs: number;
  /** The web client's built files (index.html, assets/), served at / (WEB_CLIENT_DIR). */
  webClientDir: string;
  /** NODE_ENV=production. */
  production: boolean;
}

/** `true`, `false`, a hop count, or addresses and CIDR ranges, comma-separated (Fastify's trustProxy). */
const trustProxy: Parser<boolean | string | number> = {
  parse(value) {
    if (value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    return value;
  },
  placeholder: false,
};

/** Comma-separated origins (`https://app.example.com`, no path), or `*`. */
const origins: Parser<string[]> = {
  parse(value, name) {
    return value.split(',').map((text) => {
      const origin = text.trim().replace(/\/+$/, '');
      if (origin === '*') return origin;
      let url: URL | undefined;
      try {
        url = new URL(origin);
      } catch {}
      if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== origin) {
        throw new ConfigError(
          `${name} must be origins like "https://app.example.com" (scheme, host and port only), comma-separated, or "*"; got "${text.trim()}"`,
        );
      }
      return origin;
    });
  },
  placeholder: [],
};

export const HTTP = {
  port: { name: 'PORT', default: '8000', parser: integer(0, 65535), doc: 'the port the API listens on' },
  host: { name: 'HOST', default: '127.0.0.1', parser: text, doc: 'the address the API listens on' },
  publicUrl: {
    name: 'PUBLIC_URL',
    parser: url(['http:', 'https:']),
    doc: 'the origin of every absolute URL the service writes; unset: http://localhost:$PORT',
  },
  trustProxy: { name: 'TRUST_PROXY', parser: trustProxy, doc: 'which proxies may set X-Forwarded-For; unset: none' },
  corsOrigins: { name: 'CORS_ORIGINS', parser: origins, doc: 'origins whose pages may call the API from a browser; unset: none' },
  overloadEventLoopDelayMs: {
    name: 'OVERLOAD_EVENT_LOOP_DELAY',
    default: '1s',
    parser: duration,
    doc: 'event-loop lag past which requests get 503; 0: never',
  },
  webClientDir: {
    name: 'WEB_CLIENT_DIR',
    parser: text,
    doc: "the web client's built files, served at /; unset: dist/web beside a build, web/dist from the sources",
  },
  production: {
    name: 'NODE_ENV',
    parser: { parse: (value) => value === 'production', placeholder: false },
    doc: '`production`: a production run (the development inbox stays off)',
  },
} satisfies Variables;

/**
 * Where the web client's build is unless WEB_CLIENT_DIR says: web/ beside the running bundle
 * (dist/web, built with it by npm run build); running from the sources (tsx: tests, npm run
 * dev), Vite's output folder web/dist (npm run build:web).
 */
function defaultWebClientDir(): string {
  const fromSources = import.meta.filename.endsWith('.ts');
  return fromSources ? resolve(import.meta.dirname, '../../web/dist') : join(import.meta.dirname, 'web');
}

export function loadHttp(settings: Settings): HttpConfig {
  const port = settings.read(HTTP.port);
  const localUrl = `http://localhost:${port}`;
  return {
    port,
    host: settings.read(HTTP.host),
    publicUrl: settings.check(() => settings.value(HTTP.publicUrl, localUrl)!, localUrl).replace(/\/+$/, ''),
    trustProxy: settings.read(HTTP.trustProxy) ?? false,
    corsOrigins: settings.read(HTTP.corsOrigins) ?? [],
    overloadEventLoopDelayMs: settings.read(HTTP.overloadEventLoopDelayMs),
    webClientDir: resolve(settings.read(HTTP.webClientDir) ?? defaultWebClientDir()),
    production: settings.read(HTTP.production) ?? false,
  };
}
