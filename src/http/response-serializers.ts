// Response serializers: none for error statuses (the error handler sends error bodies with
// JSON.stringify whatever a route declares), and one per distinct success shape, since many
// routes answer the same shape. Why: docs/decisions.md#runtime (start-up time).
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
        serializer = compile(route);
        built.set(shape, serializer);
      }
      return serializer;
    };
  };
}
