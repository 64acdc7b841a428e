// Response serializers: none for error statuses (the error handler sends error bodies with
// JSON.stringify whatever a route declares), and one per distinct success shape, since many
// routes answer the same shape. Why: docs/decisions.md#runtime (start-up time). A nullable
// value is serialized by a null check, not by validating the value (see `forSerializer`).
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = (body: unknown) => string;

const stringify: Serializer = (body) => JSON.stringify(body);

/** For Fastify's `schemaController.compilersFactory.buildSerializer`. */
export function buildResponseSerializers(): SerializerFactory {
  const fastJsonStringify = SerializerSelector();
  // Fastify calls the factory again for every route when there are shared schemas, each time
  // with a fresh copy of them; so the serializers are kept here, by the shared schemas' JSON
  // and then by the response schema's JSON. A serializer depends on nothing else.
  const bySharedSchemas = new Map<string, Map<string, Serializer>>();
  return (externalSchemas, options) => {
    const shared = JSON.stringify(externalSchemas ?? {});
    const built = bySharedSchemas.get(shared) ?? new Map<string, Serializer>();
    bySharedSchemas.set(shared, built);
    let compile: ReturnType<SerializerFactory> | undefined;
    return (route) => {
      // '4xx', '404', '5xx', '503': an error status, as Fastify passes it (a string).
      if (/^[45]/.test(route.httpStatus)) return stringify;
      const shape = JSON.stringify(route.schema);
      let serializer = built.get(shape);
      if (!serializer) {
        compile ??= fastJsonStringify(externalSchemas, options);
        serializer = compile({ ...route, schema: forSerializer(route.schema) });
        built.set(shape, serializer);
      }
      return serializer;
    };
  };
}

/** Keywords whose values are data, not schemas: left as they are. */
const DATA_KEYWORDS = new Set(['const', 'default', 'enum', 'examples', 'x-examples']);

/** Keywords whose values map names to schemas (a property may be called `anyOf` or `default`). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

/** Keywords that only describe a schema: kept on a nullable value's schema. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'x-examples', 'default', 'deprecated', 'readOnly']);

const isNull = (schema: unknown): boolean =>
  typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'null' && Object.keys(schema).length === 1;

/**
 * `schema` as the serializer is given it: `anyOf: [X, {type: 'null'}]` (TypeBox's `Nullable`),
 * where X has one type, becomes X with `nullable: true`. fast-json-stringify picks a branch of
 * an `anyOf` by validating the value against each branch with Ajv, all of X's formats and
 * lengths included, for every value it writes (a profile's detail: every item's contents and
 * media, their URLs' `uri` format checked by a long regular expression); with `nullable` it
 * checks for null and writes X. The route's schema itself is not changed: requests are still
 * validated against it and the OpenAPI document still says `anyOf`.
 */
export function forSerializer(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forSerializer);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(key)) copy[key] = value;
    else if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null)
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, each]) => [name, forSerializer(each)]));
    else copy[key] = forSerializer(value);
  }
  const { anyOf, ...rest } = copy;
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || !Object.keys(rest).every((key) => ANNOTATIONS.has(key))) return copy;
  const other = isNull(anyOf[1]) ? anyOf[0] : isNull(anyOf[0]) ? anyOf[1] : undefined;
  if (typeof other !== 'object' || other === null) return copy;
  const { type } = other as { type?: unknown; $ref?: unknown };
  if (typeof type !== 'string' || type === 'null' || '$ref' in other || 'anyOf' in other) return copy;
  return { ...rest, ...other, nullable: true };
}
