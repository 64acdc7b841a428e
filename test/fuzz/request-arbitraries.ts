// What one fuzz request is, abstractly (which id of which party, which credentials, which
// body), and its generators per operation. The spec names objects rather than holding their
// ids, so a seed replays the same requests against a fresh world.
import fc from 'fast-check';
import { mutatedValue, oddRawBody, validValue } from './body-arbitraries.ts';
import { deepArrays, deepObjects } from './json-values.ts';
import { multipartSpec, validForm, type MultipartSpec } from './multipart-arbitraries.ts';
import type { Operation } from './openapi-walker.ts';

export type IdChoice = { kind: 'own'; pick: number } | { kind: 'foreign'; pick: number } | { kind: 'junk'; value: string };

export type AuthChoice = { kind: 'caller'; style: number } | { kind: 'none' } | { kind: 'revoked' } | { kind: 'bad'; header: string };

export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string | null }
  | { kind: 'raw'; data: string | Buffer; contentType: string | null }
  | { kind: 'multipart'; spec: MultipartSpec };

export interface RequestSpec {
  ids: Record<string, IdChoice>;
  auth: AuthChoice;
  body: BodySpec;
  /** Path with its trailing slash (false: without it; both reach the same route). */
  slash: boolean;
  /** Extra headers (Range on file downloads, odd Accept, method overrides). */
  headers: Record<string, string>;
  /** A query string no operation reads ('' for none). */
  query: string;
}

/** Ids that are not positive integers, or no object's (docs/api-conventions.md: all 404). */
export const JUNK_IDS: readonly string[] = [
  '0',
  '-1',
  '-0',
  '99999999999999999999',
  '2147483648',
  '2147483647',
  '1.5',
  '1e3',
  'abc',
  '0x1',
  '+1',
  '01',
  ' 1',
  '1 ',
  'null',
  '١',
  '１',
  '😀',
  '\u202e1',
  '1%2F2',
  '%00',
  '\u0000',
  '1;2',
  'NaN',
];

export const JSON_TYPE = 'application/json';
const WELL_FORMED_JSON_TYPES = [JSON_TYPE, 'application/json; charset=utf-8'];

export function isWellFormedJsonType(contentType: string | null): boolean {
  return contentType !== null && WELL_FORMED_JSON_TYPES.includes(contentType);
}

const contentType: fc.Arbitrary<string | null> = fc.oneof(
  { arbitrary: fc.constant(JSON_TYPE), weight: 12 },
  {
    arbitrary: fc.constantFrom<string | null>(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=iso-8859-1',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/vnd.api+json',
      'application/json, text/plain',
      'application/octet-stream',
      'json',
      ';',
      null,
    ),
    weight: 3,
  },
);

const auth: fc.Arbitrary<AuthChoice> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('caller' as const), style: fc.nat({ max: 2 }) }), weight: 14 },
  { arbitrary: fc.constant({ kind: 'none' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'revoked' as const }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('bad' as const),
      header: fc.oneof(
        fc.constantFrom(
          'Token',
          'Token ',
          'Bearer abc',
          'Basic dXNlcjpwYXNz',
          'Token a b',
          `Token ${'a'.repeat(5000)}`,
          'Token \u00ff\u00fe',
          'Token %00',
          'Tokenabc',
          '  ',
        ),
        fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((text) => `Token ${text}x`),
      ),
    }),
    weight: 2,
  },
);

const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 8 },
  {
    arbitrary: fc.constantFrom<Record<string, string>>(
      { accept: 'text/html' },
      { accept: 'application/xml' },
      { 'x-http-method-override': 'DELETE' },
      { 'accept-charset': 'latin1' },
      { 'if-none-match': '*' },
    ),
    weight: 1,
  },
);

const rangeHeader: fc.Arbitrary<Record<string, string>> = fc.oneof(
  fc.constant({}),
  fc
    .constantFrom(
      'bytes=0-0',
      'bytes=0-',
      'bytes=-1',
      'bytes=5-2',
      'bytes=0-99999999999999999999',
      'bytes=abc',
      'bytes=0-1,3-4',
      'bytes=-0',
      'items=0-1',
      'bytes=99999-',
    )
    .map((range) => ({ range })),
);

/** Text that stays one path segment once encoded (an empty id, "." or ".." would reach another route), and no real id. */
const oneSegment = fc.string({ minLength: 1, maxLength: 8 }).filter((text) => !/^\.{1,2}$/.test(text) && !/^[1-9]\d{0,9}$/.test(text));

const oddQuery = fc.constantFrom(
  'a=1',
  'id=1',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  '%00',
  '%ZZ',
  'format=api',
  'expires=&signature=',
  'a=\u0000'.replace('\u0000', '%00'),
  'x='.concat('y'.repeat(3000)),
);

function idChoice(paramCount: number): fc.Arbitrary<IdChoice> {
  return fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('own' as const), pick: fc.nat({ max: 3 }) }), weight: 6 },
    { arbitrary: fc.record({ kind: fc.constant('foreign' as const), pick: fc.nat({ max: 3 }) }), weight: paramCount > 0 ? 3 : 0 },
    { arbitrary: fc.record({ kind: fc.constant('junk' as const), value: fc.oneof(fc.constantFrom(...JUNK_IDS), oneSegment) }), weight: 2 },
  );
}

function bodyFor(operation: Operation): fc.Arbitrary<BodySpec> {
  const requestBody = operation.requestBody;
  const raw = fc.record({ kind: fc.constant('raw' as const), data: oddRawBody, contentType });
  if (requestBody?.mediaType === 'multipart/form-data') {
    return fc.oneof(
      { arbitrary: multipartSpec.map((spec): BodySpec => ({ kind: 'multipart', spec })), weight: 8 },
      { arbitrary: raw, weight: 1 },
      { arbitrary: validValue(requestBody.schema).map((value): BodySpec => ({ kind: 'json', value, contentType: JSON_TYPE })), weight: 1 },
    );
  }
  if (requestBody) {
    return fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('json' as const), value: validValue(requestBody.schema), contentType }), weight: 5 },
      { arbitrary: fc.record({ kind: fc.constant('json' as const), value: mutatedValue(requestBody.schema), contentType }), weight: 5 },
      { arbitrary: raw, weight: 2 },
    );
  }
  if (operation.method === 'GET' || operation.method === 'HEAD') return fc.constant({ kind: 'none' });
  return fc.oneof(
    { arbitrary: fc.constant({ kind: 'none' as const }), weight: 6 },
    { arbitrary: fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 2 }), contentType }), weight: 1 },
    { arbitrary: raw, weight: 1 },
  );
}

export function requestSpec(operation: Operation): fc.Arbitrary<RequestSpec> {
  const ids = Object.fromEntries(operation.pathParams.map((name) => [name, idChoice(operation.pathParams.length)]));
  const isFile = operation.pathParams.includes('storage_key');
  return fc.record({
    ids: fc.record(ids),
    auth,
    body: bodyFor(operation),
    slash: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 }),
    headers: isFile ? rangeHeader : extraHeaders,
    query: fc.oneof({ arbitrary: fc.constant(''), weight: 8 }, { arbitrary: oddQuery, weight: 1 }),
  });
}

/** The same request every run: an operation's body in its plain valid shape. */
export function exampleBody(operation: Operation, seed: number): BodySpec {
  const requestBody = operation.requestBody;
  if (!requestBody) return { kind: 'none' };
  if (requestBody.mediaType === 'multipart/form-data') return { kind: 'multipart', spec: fc.sample(validForm, { seed, numRuns: 1 })[0]! };
  return { kind: 'json', value: fc.sample(validValue(requestBody.schema), { seed, numRuns: 1 })[0], contentType: JSON_TYPE };
}

/**
 * Fixed requests for every operation, before the random ones: the caller's own ids, the
 * stranger's, every junk id, each kind of bad credentials, and the bodies of the known
 * hostile classes (NUL, lone surrogate, 10,000-deep nesting) for operations that take one.
 */
export function fixedSpecs(operation: Operation, seed: number): RequestSpec[] {
  const body = exampleBody(operation, seed);
  const own = Object.fromEntries(operation.pathParams.map((name) => [name, { kind: 'own', pick: 0 } as IdChoice]));
  const base: RequestSpec = { ids: own, auth: { kind: 'caller', style: 0 }, body, slash: true, headers: {}, query: '' };
  const specs: RequestSpec[] = [base];
  for (const name of operation.pathParams) {
    specs.push({ ...base, ids: { ...own, [name]: { kind: 'foreign', pick: 0 } } });
    for (const value of JUNK_IDS) specs.push({ ...base, ids: { ...own, [name]: { kind: 'junk', value } } });
  }
  specs.push(
    { ...base, auth: { kind: 'none' } },
    { ...base, auth: { kind: 'revoked' } },
    { ...base, auth: { kind: 'bad', header: 'Bearer abc' } },
  );
  if (operation.requestBody?.mediaType === JSON_TYPE) {
    const text = (inner: string) => ({
      ...base,
      body: { kind: 'json', value: withFirstString(body, inner), contentType: JSON_TYPE } as BodySpec,
    });
    specs.push(text('a\u0000b'), text('\ud800'), text('\u202e😀'));
    for (const deep of [deepArrays(10_000), deepObjects(10_000)])
      specs.push({ ...base, body: { kind: 'raw', data: deep.text, contentType: JSON_TYPE } });
    specs.push(
      { ...base, body: { kind: 'raw', data: '{"a":', contentType: JSON_TYPE } },
      { ...base, body: { kind: 'json', value: {}, contentType: 'text/plain' } },
    );
  }
  return specs;
}

/** The example body with its first string field (or a "name" field) holding `text`. */
function withFirstString(body: BodySpec, text: string): unknown {
  const value =
    body.kind === 'json' && body.value !== null && typeof body.value === 'object'
      ? ({ ...(body.value as object) } as Record<string, unknown>)
      : {};
  const key = Object.keys(value).find((name) => typeof value[name] === 'string') ?? 'name';
  value[key] = text;
  return value;
}
