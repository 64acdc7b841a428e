// /docs for people on every screen and with every way of reading one: what Swagger UI's own
// page lacks (a viewport for phones, landmarks, a name for the server list, colours with
// enough contrast, targets large enough to touch), added around it without changing its code.
// Strings here rather than files beside it: the production build is one bundle.
import type { FastifyInstance } from 'fastify';

// Swagger UI's method colours and badges carry white or coloured text at 2–3.8:1; these are
// the same hues dark enough for 4.5:1.
const CSS = `
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #0f7a4a; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d63b8; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #a4520b; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c0262d; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0b7463; }
.swagger-ui .opblock.opblock-head .opblock-summary-method { background: #7a2fa0; }
.swagger-ui .opblock.opblock-options .opblock-summary-method { background: #2f5d87; }
.swagger-ui .info .title small pre, .swagger-ui .info .title small.version-stamp pre { background: #4a5160; }
.swagger-ui .info .title small.version-stamp { background: #4a5160; }
.swagger-ui .info a.link, .swagger-ui .info .url { color: #1a5fb4; }
.swagger-ui .btn.authorize { color: #0f7a4a; border-color: #0f7a4a; }
.swagger-ui .btn.authorize svg { fill: #0f7a4a; }
.swagger-ui .opblock-summary-path a.nostyle { display: inline-block; min-height: 24px; line-height: 24px; }
.swagger-ui .opblock .opblock-summary { min-height: 44px; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #595959; }
@media (max-width: 600px) {
  .swagger-ui .wrapper { padding: 0 8px; }
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .swagger-ui .opblock .opblock-summary-description { flex-basis: 100%; }
  .swagger-ui .info { margin: 16px 0; }
}
`;

// What markup Swagger UI renders and re-renders: names for its unnamed controls, its header
// and server bar as landmarks beside its own <main>, and its groups' and schemas' headings one
// level below the title (h2) rather than two.
const JS = `
new MutationObserver(function () {
  function set(selector, name, value) {
    document.querySelectorAll(selector).forEach(function (element) {
      if (element.getAttribute(name) !== value) element.setAttribute(name, value);
    });
  }
  set('#servers', 'aria-label', 'Server');
  set('.information-container', 'role', 'banner');
  set('.scheme-container', 'role', 'region');
  set('.scheme-container', 'aria-label', 'Server and authorization');
  set('h3.opblock-tag', 'aria-level', '2');
  set('.models > h4', 'aria-level', '2');
}).observe(document.documentElement, { childList: true, subtree: true, attributes: false });
`;

/** The `theme` option of @fastify/swagger-ui: its title, our stylesheet and script. */
export const DOCS_THEME = {
  title: 'Profile Service API',
  css: [{ filename: 'docs-page.css', content: CSS }],
  js: [{ filename: 'docs-page.js', content: JS }],
};

/** The page itself (Swagger UI's index.html) gains a viewport: a phone lays it out at its own width. */
export function improveDocsIndex(docs: FastifyInstance): void {
  docs.addHook('onSend', async (_request, reply, payload) => {
    if (typeof payload !== 'string' || !String(reply.getHeader('content-type')).startsWith('text/html')) return payload;
    return payload.replace(
      '<meta charset="UTF-8">',
      '<meta charset="UTF-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">',
    );
  });
}
