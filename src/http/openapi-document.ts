// What the OpenAPI document says beyond the routes' own schemas (contract §10): every
// operation named (operationId), schemas with an $id named by it in components/schemas, path
// ids typed as the integers they are, and request examples that work from /docs. The routes
// themselves take ids as strings, so that an id that is not a positive integer is a 404
// (ids.ts) rather than a validation 400: the integer type exists in the document only.
import type { RouteOptions } from 'fastify';

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
    if (item.head?.operationId !== undefined) item.head = { ...item.head, operationId: `${item.head.operationId}Head` };
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
 * A personal-data GET (http/entity-tags.ts, contract §14): its 200 carries an ETag, and
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
