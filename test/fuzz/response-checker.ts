// The invariants every response must keep, whatever was sent: no 5xx; a declared status has
// a body matching its schema in /openapi.json (Ajv 2020, $refs resolved against the document's
// components); an undeclared status is an error with the API's generic shape (docs/api-conventions.md) and
// the headers that go with it.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument, Operation } from './openapi-walker.ts';

// ajv-formats is CommonJS: under ES modules its function may sit on `default`.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export interface ObservedResponse {
  status: number;
  headers: Headers;
  text: string;
}

export type SchemaVerdict = { ok: true } | { ok: false; problems: string[] };

export class ResponseChecker {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    // The document itself, so `#/components/schemas/…` references resolve inside it.
    this.ajv.addSchema({ $id: 'openapi.json', components: doc.components ?? {} });
  }

  /** Compiles `schema` with its local references pointed at the document. */
  validator(cacheKey: string, schema: object): ValidateFunction {
    let validate = this.validators.get(cacheKey);
    if (!validate) {
      const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'));
      validate = this.ajv.compile(rebased);
      this.validators.set(cacheKey, validate);
    }
    return validate;
  }

  /**
   * Problems with `response` as an answer to `operation` (empty: none). `isHead`: a HEAD
   * request, whose response has headers but no body.
   */
  check(operation: Operation, method: string, response: ObservedResponse): string[] {
    const problems: string[] = [];
    const { status } = response;
    if (status >= 500) problems.push(`5xx: status ${status}`);
    problems.push(...this.headerProblems(response));
    if (method === 'HEAD') {
      if (response.text !== '') problems.push('a HEAD response has a body');
      return problems;
    }
    const declared = operation.responses.get(status);
    if (declared) {
      problems.push(...this.declaredProblems(operation, response, declared.schema, declared.mediaType));
    } else if (status < 400) {
      problems.push(`status ${status} is not declared for ${operation.key} (declared: ${[...operation.responses.keys()].join(', ')})`);
    } else {
      problems.push(...errorShapeProblems(response));
    }
    return problems;
  }

  private declaredProblems(
    operation: Operation,
    response: ObservedResponse,
    schema: object | undefined,
    mediaType: string | undefined,
  ): string[] {
    if (schema === undefined) {
      return response.text === '' ? [] : [`status ${response.status} declares no body, got ${excerpt(response.text)}`];
    }
    if (mediaType !== undefined && !mediaType.includes('json')) return []; // file bytes: any content
    const parsed = parseJson(response);
    if ('problem' in parsed) return [parsed.problem];
    const validate = this.validator(`${operation.key} ${response.status}`, schema);
    if (validate(parsed.value)) return [];
    return (validate.errors ?? []).map(
      (error) => `schema mismatch at "${error.instancePath}": ${error.message} (${JSON.stringify(error.params)})`,
    );
  }

  private headerProblems(response: ObservedResponse): string[] {
    const problems: string[] = [];
    const header = (name: string) => response.headers.get(name);
    if (response.status === 401 && !/^Token\b/.test(header('www-authenticate') ?? ''))
      problems.push('401 without "WWW-Authenticate: Token"');
    if (response.status === 405 && !header('allow')) problems.push('405 without Allow');
    if ((response.status === 429 || response.status === 503) && !/^\d+$/.test(header('retry-after') ?? '')) {
      problems.push(`${response.status} without a Retry-After in seconds`);
    }
    return problems;
  }
}

/** docs/api-conventions.md: 400 is field-keyed errors (or {"detail"} for a body that is not JSON at all); every other error {"detail": "…"}. */
export function errorShapeProblems(response: ObservedResponse): string[] {
  const parsed = parseJson(response);
  if ('problem' in parsed) return [parsed.problem];
  const body = parsed.value;
  if (response.status === 400 && !isDetail(body)) {
    return isFieldErrors(body) && Object.keys(body as object).length > 0
      ? []
      : [`400 body is not a field-keyed error object: ${excerpt(response.text)}`];
  }
  return isDetail(body) ? [] : [`${response.status} body is not {"detail": "…"}: ${excerpt(response.text)}`];
}

function isDetail(body: unknown): boolean {
  return isObject(body) && Object.keys(body).length === 1 && typeof body.detail === 'string' && body.detail !== '';
}

/** {"field": ["message"], "nested": {"field": [...]}, "list": [{...}, {}]} as DRF writes them. */
function isFieldErrors(body: unknown): boolean {
  if (!isObject(body)) return false;
  return Object.values(body).every((value) =>
    Array.isArray(value)
      ? value.length > 0 && (value.every((message) => typeof message === 'string' && message !== '') || value.every(isFieldErrors))
      : isFieldErrors(value),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(response: ObservedResponse): { value: unknown } | { problem: string } {
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/json'))
    return { problem: `status ${response.status} with content-type "${type}", not JSON: ${excerpt(response.text)}` };
  try {
    return { value: JSON.parse(response.text) };
  } catch {
    return { problem: `status ${response.status} body is not JSON: ${excerpt(response.text)}` };
  }
}

export function excerpt(text: string, max = 300): string {
  const shown = JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
  return text.length > max ? `${shown} (${text.length} characters)` : shown;
}
