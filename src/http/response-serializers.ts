// Fastify builds a fast-json-stringify serializer for every response schema of every route
// when it starts. The error responses' schemas (error-schemas.ts) only document: the error
// handler sends error bodies with JSON.stringify whatever a route declares (server-setup.ts).
// They were four in five of the serializers built, and about half of the time start-up spent
// building them (about 120 ms of a 700–1,000 ms start), for functions nothing called; so error
// statuses get JSON.stringify here, and the success statuses Fastify's own serializers.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

const stringify = (body: unknown): string => JSON.stringify(body);

/** For Fastify's `schemaController.compilersFactory.buildSerializer`. */
export function buildResponseSerializers(): SerializerFactory {
  const fastJsonStringify = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = fastJsonStringify(externalSchemas, options);
    // '4xx', '404', '5xx', '503': an error status, as Fastify passes it (a string).
    return (route) => (/^[45]/.test(route.httpStatus) ? stringify : compile(route));
  };
}
