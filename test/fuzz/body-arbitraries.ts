// Request bodies from an operation's JSON schema: values of the right shape, the same values
// mutated (wrong types, missing and extra fields, hostile strings, huge numbers), and whole
// bodies that are not what any schema describes (other JSON values, broken JSON, 10,000-deep
// nesting, over a mebibyte).
import fc from 'fast-check';
import { deepArrays, deepObjects, RawJson, WorldRef } from './json-values.ts';
import type { JsonSchema } from './openapi-walker.ts';
import { cleanText, nastyEmail, nastyString } from './strings.ts';

const MEDIA_FIELD = /(^|_)(media|image)_resource$/;

/** A strong password, so registration and password changes can succeed. */
const strongPassword = fc.stringMatching(/^[a-z]{4,8}-[a-z]{4,8}-\d{2,4}$/).map((text) => `fz-${text}`);

const simpleEmail = fc
  .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom('example.com', 'example.org', 'mail.example.net'))
  .map(([local, domain]) => `fz-${local}@${domain}`);

/** A value that matches `schema` (field names steer it towards the fuzz world's real values). */
export function validValue(schema: JsonSchema, field = ''): fc.Arbitrary<unknown> {
  const branches: JsonSchema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => validValue(branch, field)));
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (schema.type) {
    case 'object':
      return validObject(schema);
    case 'array':
      return fc.array(validValue(schema.items ?? {}, field), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'string':
      return validString(schema, field);
    case 'integer':
      return validInteger(schema, field);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, validValue(property, name)]));
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((name: string) => name in properties) });
}

function validString(schema: JsonSchema, field: string): fc.Arbitrary<string | WorldRef> {
  if (schema.format === 'email') {
    return field === 'username' || field === 'email'
      ? fc.oneof(simpleEmail, fc.constant(new WorldRef('callerEmail')), fc.constant(new WorldRef('strangerEmail')))
      : simpleEmail;
  }
  if (typeof schema.pattern === 'string')
    return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? Infinity));
  if (/password$/.test(field)) {
    return field === 'new_password' ? strongPassword : fc.oneof(fc.constant(new WorldRef('callerPassword')), strongPassword);
  }
  if (field === 'username') return fc.oneof(simpleEmail, fc.constant(new WorldRef('callerEmail')));
  return cleanText(schema.minLength ?? 0, schema.maxLength ?? 64);
}

function validInteger(schema: JsonSchema, field: string): fc.Arbitrary<number | WorldRef> {
  // Integers still, but past every column's range.
  const huge = [2_147_483_647, 2_147_483_648, -2_147_483_649, 2 ** 53 + 2, 1e308, -1e308].filter(
    (n) => n >= (schema.minimum ?? -Infinity) && n <= (schema.maximum ?? Infinity),
  );
  const small = fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1000 });
  const plain = huge.length === 0 ? small : fc.oneof({ arbitrary: small, weight: 4 }, { arbitrary: fc.constantFrom(...huge), weight: 1 });
  if (!MEDIA_FIELD.test(field)) return plain;
  return fc.oneof(
    { arbitrary: fc.constant(new WorldRef('ownMedia')), weight: 4 },
    { arbitrary: fc.constant(new WorldRef('foreignMedia')), weight: 2 },
    { arbitrary: plain, weight: 1 },
  );
}

/** A value of the wrong kind for any field. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2_147_483_648,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    -1e308,
    '3',
    '',
    'true',
    [],
    {},
    [[[]]],
    { a: { b: {} } },
    [1, 'two', null],
    { text: 'x' },
    new RawJson('-0'),
    new RawJson('1e309'),
    new RawJson('-1e309'),
    new RawJson('99999999999999999999'),
    new RawJson('-99999999999999999999'),
    new RawJson('0.0000000000000000000000001'),
    new RawJson('1E+2'),
  ),
  nastyString,
  nastyEmail,
  fc.constantFrom(deepArrays(200), deepObjects(200)),
  fc.jsonValue({ maxDepth: 3 }),
);

type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'remove'; at: number }
  | { kind: 'add'; at: number; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: wrongValue }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      at: fc.nat(),
      key: fc.oneof(
        fc.constantFrom(
          '__proto__',
          'constructor',
          'prototype',
          'id',
          'url',
          'extra',
          '',
          '\u0000',
          'a'.repeat(300),
          'primary',
          'is_default',
          'verified',
        ),
        fc.string(),
      ),
      value: wrongValue,
    }),
    weight: 2,
  },
);

/** `value` with one to three mutations applied at places picked among its members. */
export function mutatedValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc
    .tuple(validValue(schema), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([value, mutations]) => mutations.reduce(applyMutation, value));
}

interface Slot {
  parent: Record<string, unknown> | unknown[] | undefined;
  key: string | number;
}

function slots(root: unknown): Slot[] {
  const found: Slot[] = [{ parent: undefined, key: '' }];
  const walk = (value: unknown) => {
    if (value instanceof RawJson || value instanceof WorldRef || value === null || typeof value !== 'object') return;
    for (const [key, member] of Object.entries(value)) {
      found.push({ parent: value as Record<string, unknown>, key: Array.isArray(value) ? Number(key) : key });
      walk(member);
    }
  };
  walk(root);
  return found;
}

function applyMutation(root: unknown, change: Mutation): unknown {
  const copy = structuredCloneBody(root);
  const places = slots(copy);
  const slot = places[change.at % places.length]!;
  if (slot.parent === undefined) {
    if (change.kind === 'replace') return change.value;
    if (change.kind === 'add' && isPlainObject(copy))
      Object.defineProperty(copy, change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
    return copy;
  }
  const parent = slot.parent as Record<string | number, unknown>;
  if (change.kind === 'replace') parent[slot.key] = change.value;
  else if (change.kind === 'remove') {
    if (Array.isArray(parent)) parent.splice(Number(slot.key), 1);
    else delete parent[slot.key];
  } else {
    const target = parent[slot.key];
    if (isPlainObject(target))
      Object.defineProperty(target, change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof RawJson) && !(value instanceof WorldRef)
  );
}

/** A deep copy that keeps RawJson and WorldRef instances (and own "__proto__" keys). */
function structuredCloneBody(value: unknown): unknown {
  if (value instanceof RawJson || value instanceof WorldRef || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(structuredCloneBody);
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    Object.defineProperty(copy, key, { value: structuredCloneBody(member), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** Whole bodies that are not the object any operation takes; strings are sent as they are. */
export const oddRawBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom<string | Buffer>(
    'null',
    '[]',
    '"text"',
    '42',
    '-0',
    'true',
    '{',
    '{"a":',
    'not json',
    "{'a': 1}",
    '{"a":1}garbage',
    '{"a":1}{"b":2}',
    '\u0000',
    ' ',
    '\ufeff{}',
    '{"name":"a","name":"b"}',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"name":"\\ud800"}',
    '{"name":"\\u0000"}',
    '{"name":"a\\u0000b","text":"\\u0000"}',
    '{"a":1e999999}',
    `[${'1,'.repeat(5000)}1]`,
    deepArrays(10_000).text,
    deepObjects(10_000).text,
    `{"name":${deepArrays(10_000).text}}`,
    `{"name":"${'x'.repeat(1024 * 1024 + 10)}"}`,
    Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
    Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
);
