// What the OpenAPI document says beyond the routes' own schemas (docs/web-client.md): every
// operation named (operationId), schemas with an $id named by it in components/schemas, path
// ids typed as the integers they are, and request examples that work from /docs. The routes
// themselves take ids as strings, so that an id that is not a positive integer is a 404
// (ids.ts) rather than a validation 400: the integer type exists in the document only.
import type { RouteOptions } from 'fastify';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document as @fastify/swagger hands it over: untyped JSON
type JsonObject = Record<string, any>;

const MAX_ID = 2_147_483_647; // as ids.ts

/** The password of every request example: one the password rules accept. */
export const EXAMPLE_PASSWORD = 'correct-horse-battery-staple-42';

/** The address of the account the request examples tell the story of. */
export const EXAMPLE_EMAIL = 'ada@example.com';

export interface NamedExample {
  summary: string;
  value: Record<string, unknown>;
}

/**
 * Request-body examples, as TypeBox options of a body schema. One example is `examples: [value]`
 * (standard JSON Schema, ignored by validation); several, for a body with alternatives (an
 * item's list or image content), are named: @fastify/swagger moves `x-examples` to the media
 * type's `examples`, which Swagger UI offers as a choice in "Try it out".
 */
export function namedExamples(examples: Record<string, NamedExample>): { 'x-examples': Record<string, NamedExample> } {
  return { 'x-examples': examples };
}

/** A path parameter that holds an object's id: `id`, or `<something>_id`. */
export function isIdParameter(name: string): boolean {
  return name === 'id' || name.endsWith('_id');
}

/** Shared schemas and those with an $id appear in components/schemas under their $id. */
export function buildLocalReference(json: JsonObject, _baseUri: unknown, _fragment: unknown, i: number): string {
  return typeof json.$id === 'string' && /^[A-Za-z][\w.-]*$/.test(json.$id) ? json.$id : `def-${i}`;
}

/**
 * Every documented operation declares its operationId where the route is declared; a route
 * without one stops start-up, so none is forgotten. HEAD (Fastify's automatic ones are not
 * documented) and the documentation's own routes are exempt.
 */
export function checkOperationId(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (methods.every((method) => method === 'HEAD' || method === 'OPTIONS')) return;
  if (route.schema?.hide || route.url.startsWith('/docs')) return;
  if (typeof (route.schema as JsonObject | undefined)?.operationId !== 'string') {
    throw new Error(`${methods.join(',')} ${route.url} has no schema.operationId (see src/http/openapi-document.ts)`);
  }
}

/**
 * @fastify/swagger's transformObject: a declared HEAD (a route for GET and HEAD) gets the GET's
 * operationId + "Head", and path ids become integers ≥ 1 (with 1 as "Try it out"'s default).
 */
export function transformDocument({ openapiObject }: { openapiObject: Partial<JsonObject> }): JsonObject {
  for (const [path, item] of Object.entries<JsonObject>(openapiObject.paths ?? {})) {
    if (path.startsWith('/app/') && item.get) item.get = withValidators(item.get);
    for (const method of ['patch', 'put', 'delete'] as const) {
      if (item[method]?.responses?.['412']) item[method] = withHeader(item[method], IF_MATCH);
    }
    if (item.post?.responses?.['422']) item.post = withHeader(item.post, IDEMPOTENCY_KEY);
    // GET and HEAD of one route share one operation object: HEAD gets a copy of its own.
    if (item.head?.operationId !== undefined) item.head = withoutBodies({ ...item.head, operationId: `${item.head.operationId}Head` });
    for (const operation of Object.values<JsonObject>(item)) {
      if (typeof operation !== 'object' || !Array.isArray(operation.parameters)) continue;
      operation.parameters = operation.parameters.map((parameter: JsonObject) =>
        // One with a pattern of its own is not an id (linking names a provider where an identity's id goes).
        parameter.in === 'path' && isIdParameter(parameter.name) && parameter.schema?.pattern === undefined
          ? {
              ...parameter,
              schema: {
                type: 'integer',
                minimum: 1,
                maximum: MAX_ID,
                description: 'A positive integer id; anything else (not a number, 0, too large) is answered 404',
              },
              example: 1,
            }
          : parameter,
      );
    }
  }
  return openapiObject;
}

/**
 * A HEAD answers with the status and headers its GET would, and never a body (HTTP; Node sends
 * none): none of its responses, errors included, declares content.
 */
function withoutBodies(operation: JsonObject): JsonObject {
  const responses = Object.fromEntries(
    Object.entries<JsonObject>(operation.responses ?? {}).map(([status, { content: _content, ...response }]) => [status, response]),
  );
  return { ...operation, responses };
}

/**
 * A personal-data GET (http/entity-tags.ts, docs/offline-and-live.md): its 200 carries an ETag, and
 * If-None-Match with the current one answers 304 with no body.
 */
function withValidators(operation: JsonObject): JsonObject {
  const etag = { description: 'Strong tag of the exact body: changes exactly when the body does', schema: { type: 'string' } };
  const responses = { ...operation.responses };
  const ok = responses['200'];
  if (ok) responses['200'] = { ...ok, headers: { ...ok.headers, ETag: etag } };
  responses['304'] = { description: 'Not modified: If-None-Match named the current tag; no body', headers: { ETag: etag } };
  const parameters = [
    ...(operation.parameters ?? []),
    {
      in: 'header',
      name: 'If-None-Match',
      required: false,
      schema: { type: 'string' },
      description: 'A tag (or a list of tags) the client holds: 304 when one is current',
    },
  ];
  return { ...operation, parameters, responses };
}

const IF_MATCH = {
  in: 'header',
  name: 'If-Match',
  required: false,
  schema: { type: 'string' },
  description: "The resource's tag as last read (its ETag), or *: the change is made only while it is still current, else 412",
};

const IDEMPOTENCY_KEY = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  description:
    'Any 1–255 printable characters, new for each create: a retry with the same key within 24 hours answers the first answer again (status, body, Location) without a second object; the same key with another request is 422',
};

function withHeader(operation: JsonObject, parameter: JsonObject): JsonObject {
  return { ...operation, parameters: [...(operation.parameters ?? []), parameter] };
}

/** The document's info.description: what the API is and how to call it, shown at the top of /docs. */
export const API_DESCRIPTION = [
  'Profile Service keeps accounts and the personal information their people organise in them: app users,',
  'their profiles, topics, items and list entries, media, emergency information, and who they share it with.',
  'The web client at `/` uses this same API.',
  '',
  '**Authentication.** Register (`POST /auth/register/`), verify the address from the e-mail, then sign in',
  'with `POST /auth/login/`: the answer holds a token. Send it on every other request as',
  '`Authorization: Token <token>` (in "Authorize" above, enter `Token <token>`). Each sign-in issues a token of',
  'its own (one per device); `POST /auth/logout/` ends it. A token unused for a while expires.',
  '',
  '**Errors.** Every error answers JSON. 400: the fields at fault, `{"<field>": ["message", …], "non_field_errors": [...]}`.',
  'Any other status: `{"detail": "…"}` — 401 with no, or an expired, token; 404 for what does not exist',
  "and for what is someone else's (the two are never told apart); 409 for a conflict; 412 when `If-Match` no",
  'longer holds; 429 with `Retry-After` when a limit is reached. Messages are sentences a client may show to a person.',
  'An answer to `HEAD` has the status and headers of the `GET`, and no body, errors included.',
  '',
  '**Paths.** Each path answers with or without its trailing slash, the same (`/health` and `/health/`,',
  '`/account/profile/` and `/account/profile`); this document names each in one form.',
].join('\n');

/**
 * The operations' groups in the order /docs shows them: signing in first, then the account,
 * then the data. Every tag a route uses is listed here (test/browser/docs.test.ts checks it).
 */
export const API_TAGS: { name: string; description: string }[] = [
  { name: 'auth', description: 'Register, verify an address, sign in (a token), sign out, reset a forgotten password.' },
  { name: 'sessions', description: 'The tokens an account holds (its signed-in devices), and ending them.' },
  { name: 'account', description: 'The signed-in account: its password, its data export, deleting it.' },
  { name: 'e-mail addresses', description: "The account's addresses: add, verify, make primary, remove." },
  {
    name: 'mfa',
    description:
      'Multi-factor sign-in: a TOTP code (RFC 6238) from an authenticator app, or a recovery code. 1. POST /account/mfa/totp/ {password}: a secret and an otpauth:// URL for an authenticator app (pending). ' +
      '2. POST /account/mfa/totp/confirm/ {code}: on, with ten recovery codes shown once. 3. POST /auth/login/ then answers {mfa_required, mfa_token} instead of a token; POST /auth/login/mfa/ {mfa_token, code} answers the token (within 5 minutes, once). ' +
      'A reset by key and deleting the account also need a code while it is on.',
  },
  {
    name: 'passkeys',
    description:
      'Passkeys (WebAuthn). Adding one, signed in: 1. POST /account/passkeys/options/ {password}: creation options. 2. Hand them to the authenticator ' +
      '(@simplewebauthn/browser startRegistration({optionsJSON}), or the platform API). 3. POST /account/passkeys/ {name, response}. Signing in: ' +
      'POST /auth/passkey/options/, then startAuthentication({optionsJSON}), then POST /auth/passkey/ {response}: a token, with no two-step code.',
  },
  {
    name: 'identities',
    description: 'Signing in with another provider (OpenID Connect: Apple, Google, …), and the providers linked to the account.',
  },
  { name: 'app users', description: 'The people an account keeps information for, and what each holds.' },
  {
    name: 'profiles',
    description: "An app user's profiles, each holding topics: one may be the default; a private one is seen only with private access.",
  },
  { name: 'topics', description: "A profile's topics, text or visual (GET /app/topic-types/), each holding items." },
  {
    name: 'items',
    description: "A topic's items, each with exactly one content: an image (a description and up to two media) or a list of entries.",
  },
  { name: 'list entries', description: "The entries of an item's list, one at a time (an image item has none: 404)." },
  { name: 'media', description: 'Pictures and files, uploaded once and used by items.' },
  {
    name: 'emergency items',
    description: "An app user's emergency information (a name, a description, a picture or file), for emergency links to show.",
  },
  {
    name: 'emergency contacts',
    description: 'Whom to call in an emergency (a name, a relation, phone numbers, an address), for emergency links to show.',
  },
  { name: 'emergency links', description: 'Links (with a PIN) that show chosen emergency information to whoever holds them.' },
  { name: 'sharing', description: "Inviting other accounts to an app user's information, and what they may do." },
  { name: 'sync', description: 'Changes since a cursor, and a live stream of them, for clients that work offline.' },
  { name: 'service', description: 'Health.' },
  { name: 'operators', description: 'For operators only (everyone else gets 404): find and act on accounts, never read their data.' },
];
