// Reads the service's own /openapi.json into the list of operations the fuzzer drives: method,
// path template, path parameters, request body (media type and schema) and declared responses.

export type JsonSchema = Record<string, any>;

export interface DeclaredResponse {
  /** The JSON (or binary) body schema; undefined when the response declares no content. */
  schema: JsonSchema | undefined;
  mediaType: string | undefined;
}

export interface Operation {
  /** "GET /app/users/{id}/": the name used in messages, coverage and FUZZ_ONLY. */
  key: string;
  method: string;
  path: string;
  pathParams: string[];
  requestBody: { mediaType: string; schema: JsonSchema; required: boolean } | undefined;
  responses: Map<number, DeclaredResponse>;
  /** No token needed (the operation's `security` is empty). */
  anonymous: boolean;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, JsonSchema> };
  security?: unknown[];
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'];

export function listOperations(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
      const content: Record<string, { schema?: JsonSchema }> | undefined = operation.requestBody?.content;
      const [bodyType, bodyContent] = Object.entries(content ?? {})[0] ?? [];
      const responses = new Map<number, DeclaredResponse>();
      for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
        const [mediaType, media] = Object.entries<any>(response.content ?? {})[0] ?? [];
        responses.set(Number(status), { schema: media?.schema, mediaType });
      }
      const security: unknown[] = operation.security ?? doc.security ?? [];
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams,
        requestBody: bodyType
          ? { mediaType: bodyType, schema: bodyContent?.schema ?? {}, required: operation.requestBody.required === true }
          : undefined,
        responses,
        anonymous: security.length === 0,
      });
    }
  }
  return operations;
}

/** Follows a local `#/components/schemas/…` reference (the body generators need the target). */
export function resolveRef(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
    const target = name === undefined ? undefined : doc.components?.schemas?.[name];
    if (!target) throw new Error(`unresolvable $ref ${current.$ref}`);
    current = target;
  }
  return current;
}

/** The path with its parameters filled in (already encoded by the caller). */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return value;
  });
}
