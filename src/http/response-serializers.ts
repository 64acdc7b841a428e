// Fastify builds a fast-json-stringify serializer for every response schema of every route
// when it starts, and that was a quarter of start-up's CPU. Two things made most of it waste:
// - the error responses' schemas (error-schemas.ts) only document: the error handler sends
//   error bodies with JSON.stringify whatever a route declares (server-setup.ts); they were
//   four in five of the serializers built. Error statuses get JSON.stringify here.
// - of the 105 success schemas, 35 differ: a GET and its HEAD, a PATCH and a PUT, and the
//   routes of one resource answer the same shape. One serializer is built per shape.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = (body: unknown) => string;

const stringify: Serializer = (body) => JSON.stringify(body);

/** For Fastify's `schemaController.compilersFactory.buildSerializer`. */
export function buildResponseSerializers(): SerializerFactory {
  const fastJsonStringify = SerializerSelector();
  // Fastify calls the factory again for every route once shared schemas were added (they
  // are: error-schemas.ts), each time with a fresh copy of them; so the serializers are kept
  // here, by the shared schemas' JSON and then by the response schema's JSON (its shape). A
  // serializer depends on nothing else (the options are the server's, the same each time).
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
        serializer = compile(route);
        built.set(shape, serializer);
      }
      return serializer;
    };
  };
}
