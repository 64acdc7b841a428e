// The web client for people (docs/web-client.md), served from its build (WEB_CLIENT_DIR):
// - its pages — `/` and the paths in PAGE_PATHS, none under an API prefix, so an unknown
//   /app/, /account/, /auth/, /media/ or /public/ path keeps the API's JSON 404 — answer index.html,
//   revalidated on every visit (no-cache), so a new build is picked up at once; an emergency
//   link's page, whose address is the link's token, is never stored, sent on or indexed;
// - its hashed files under /assets/ are cached for a year (immutable): a new build names them anew.
// Pages get a content security policy of their own: scripts, styles and connections only from
// this origin (no inline script), images also from data:, blob: (previews of a chosen file) and
// PUBLIC_URL's origin (the signed `file` URLs of media). Everything else keeps the API's
// strict headers (security-headers.ts).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { notFound } from '../errors.ts';
import { toLoopbackHost } from './loopback.ts';
import { SECRET_ADDRESS_HEADERS } from './security-headers.ts';
import type { App } from './types.ts';

const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** The client's page paths (web/src/app.tsx has the same list; web/README.md documents it). */
export const PAGE_PATHS = [
  '/',
  '/sign-up',
  '/sign-in',
  // Back from another provider (docs/sign-in-providers.md): the one-time code in the fragment.
  '/sign-in/provider',
  '/verify-email',
  '/forgot-password',
  '/reset-password',
  '/account-deleted',
  '/settings',
  '/settings/*',
  '/data',
  '/data/*',
  '/shared',
  // The operators' console (docs/operators.md): one page, its views chosen by the query
  // (/admin?account=12, ?view=outbox, ?view=audit), so that no page lies under /admin/, the API's.
  '/admin',
  // An emergency link, $PUBLIC_URL/emergency/<token> (docs/emergency-links.md): the page reads /public/emergency/<token>/.
  '/emergency/*',
] as const;

/** The page of an emergency link, whose address is its credential: the headers of its API (SECRET_ADDRESS_HEADERS). */
const EMERGENCY_PAGE = '/emergency/*';

const NOT_BUILT =
  'The web client is not built, so there is no page here yet. Run `npm run build` (or `npm run build:web` while developing) ' +
  'and reload. The API is unaffected: see /docs.\n';

export function pageContentSecurityPolicy(publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: ${origin}`,
    `media-src 'self' blob: ${origin}`,
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Whether `dir` holds a build of the web client. */
export function webClientBuilt(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
}

/** The page's tag that tells the client the development inbox is on (src/mail/dev-inbox.ts), so it need not ask. */
export const DEV_INBOX_META = '<meta name="dev-inbox" content="/dev/mail">';

/**
 * The page's tag that names the languages the service speaks (LANGUAGES), its default first:
 * the client offers only these and falls back to the first (web/src/i18n/language.ts).
 */
export function languagesMeta(languages: readonly string[], defaultLanguage: string): string {
  const ordered = [defaultLanguage, ...languages.filter((language) => language !== defaultLanguage)];
  return `<meta name="languages" content="${ordered.join(',')}">`;
}

/**
 * `devInbox`: the development inbox is on: its page is served, and every page says so, to a
 * request whose Host is a loopback name; to any other, /dev/mail is the API's 404.
 */
export async function registerWebClient(
  app: App,
  dir: string,
  publicUrl: string,
  devInbox = false,
  languages: { languages: readonly string[]; defaultLanguage: string } = { languages: ['en', 'de', 'fr', 'es'], defaultLanguage: 'en' },
): Promise<void> {
  const csp = pageContentSecurityPolicy(publicUrl);
  const head = languagesMeta(languages.languages, languages.defaultLanguage);
  const indexFile = join(dir, 'index.html');
  const assets = join(dir, 'assets');
  await app.register(async (web) => {
    // Pages and their files are public: the token lives in the page, not in a cookie.
    web.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: 'none' };
    });
    // Only sendFile of @fastify/static (types, ranges, streaming): a missing file must be the
    // API's JSON 404, which its own wildcard route does not give. Without a build at start-up,
    // there is nothing to serve until a restart.
    const served = existsSync(assets);
    if (served) {
      await web.register(fastifyStatic, {
        root: assets,
        serve: false,
        // A hashed name never changes content.
        cacheControl: true,
        maxAge: '365d',
        immutable: true,
        etag: false,
        lastModified: false,
        dotfiles: 'deny',
      });
    }
    web.get<{ Params: { name: string } }>('/assets/:name', { schema: { hide: true } }, (request, reply) => {
      const { name } = request.params;
      // Vite writes its files flat into assets/: a name with a slash or starting with a dot is none of them.
      if (!served || !ASSET_NAME.test(name) || !existsSync(join(assets, name))) throw notFound();
      return reply.sendFile(name);
    });
    for (const path of devInbox ? [...PAGE_PATHS, '/dev/mail'] : PAGE_PATHS) {
      web.get(path, { schema: { hide: true } }, async (request, reply) => {
        const inbox = devInbox && toLoopbackHost(request);
        if (path === '/dev/mail' && !inbox) throw notFound();
        // Read on each visit (a few hundred bytes): a rebuild during development shows at once.
        const file = await readFile(indexFile, 'utf8').catch(() => undefined);
        const html = file?.replace('</head>', `${head}${inbox ? DEV_INBOX_META : ''}</head>`);
        if (html === undefined) {
          if (path === EMERGENCY_PAGE) reply.headers(SECRET_ADDRESS_HEADERS);
          return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT);
        }
        reply.header('cache-control', 'no-cache');
        if (path === EMERGENCY_PAGE) reply.headers(SECRET_ADDRESS_HEADERS);
        return reply.header('content-security-policy', csp).type('text/html; charset=utf-8').send(html);
      });
    }
  });
}
