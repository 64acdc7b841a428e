// The serializers Fastify is given: its own, built from the schema, for success statuses; the
// whole body as JSON for error statuses, whose schemas only document (error-schemas.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type } from 'typebox';
import { buildResponseSerializers, forSerializer } from '../../src/http/response-serializers.ts';
import { Nullable, Url } from '../../src/app-data/kernel/field-schemas.ts';

const schema = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
  required: ['id'],
  additionalProperties: false,
};

const compile = buildResponseSerializers()({}, {});
const body = { id: 7, name: 'Ann', secret: 'not in the schema' };

describe('response serializers', () => {
  for (const httpStatus of ['200', '201', '2xx', 'default']) {
    test(`${httpStatus}: built from the schema, so a field it does not list is left out`, () => {
      const serialize = compile({ method: 'GET', url: '/x', httpStatus, schema });
      assert.deepEqual(JSON.parse(serialize(body)), { id: 7, name: 'Ann' });
    });
  }

  for (const httpStatus of ['400', '404', '4xx', '503', '5xx']) {
    test(`${httpStatus}: the whole body, whatever the schema lists`, () => {
      const serialize = compile({ method: 'GET', url: '/x', httpStatus, schema });
      assert.deepEqual(JSON.parse(serialize(body)), body);
      const fieldErrors = { entries: [{}, { text: ['This field may not be blank.'] }] };
      assert.deepEqual(JSON.parse(serialize(fieldErrors)), fieldErrors);
    });
  }

  test('one serializer per shape, across the calls Fastify makes with fresh copies of the shared schemas', () => {
    const factory = buildResponseSerializers();
    const first = factory({ Name: { $id: 'Name', type: 'string' } }, {});
    const again = factory({ Name: { $id: 'Name', type: 'string' } }, {});
    const get = first({ method: 'GET', url: '/x', httpStatus: '200', schema });
    const head = again({ method: 'HEAD', url: '/x', httpStatus: '200', schema: structuredClone(schema) });
    assert.equal(head, get);
    const other = again({ method: 'GET', url: '/y', httpStatus: '200', schema: { ...schema, required: ['id', 'name'] } });
    assert.notEqual(other, get);
    // Other shared schemas: built apart, since a $ref may mean something else there.
    const elsewhere = factory({ Name: { $id: 'Name', type: 'integer' } }, {});
    assert.notEqual(elsewhere({ method: 'GET', url: '/x', httpStatus: '200', schema }), get);
  });

  test('a schema that refers to a shared one: the shared schemas are the ones Fastify passes', () => {
    const withShared = buildResponseSerializers()({ Name: { $id: 'Name', type: 'string' } }, {});
    const serialize = withShared({
      method: 'GET',
      url: '/x',
      httpStatus: '200',
      schema: { type: 'object', properties: { name: { $ref: 'Name' } } },
    });
    assert.equal(serialize({ name: 'Ann', other: 1 }), '{"name":"Ann"}');
  });

  describe('a nullable value (anyOf with null)', () => {
    const media = Type.Object({ id: Type.Integer(), url: Url, name: Type.String({ maxLength: 5 }) });
    const nullableSchema = Type.Object({ image: Nullable(media), note: Nullable(Type.String({ description: 'A note' })) });

    test('is written by a null check, not by validating the value against each branch', () => {
      const serialize = compile({ method: 'GET', url: '/x', httpStatus: '200', schema: nullableSchema });
      assert.equal(serialize({ image: null, note: null }), '{"image":null,"note":null}');
      // A value its formats and lengths would refuse is written as its schema says; validating it
      // to pick the branch would have thrown (a 500).
      const written = serialize({ image: { id: 1, url: 'not a URL', name: 'too long a name', extra: true }, note: 'hi' });
      assert.deepEqual(JSON.parse(written), { image: { id: 1, url: 'not a URL', name: 'too long a name' }, note: 'hi' });
    });

    test('the route keeps its schema: requests and the OpenAPI document still see anyOf', () => {
      const before = JSON.stringify(nullableSchema);
      const seen = forSerializer(nullableSchema) as { properties: Record<string, Record<string, unknown>> };
      assert.equal(JSON.stringify(nullableSchema), before);
      assert.equal(seen.properties.image!.nullable, true);
      assert.equal(seen.properties.image!.type, 'object');
      assert.equal(seen.properties.image!.anyOf, undefined);
      assert.deepEqual(seen.properties.note, { type: 'string', description: 'A note', nullable: true });
    });

    test('other unions are left to fast-json-stringify as they are', () => {
      const kinds = Type.Union([Type.Literal('a'), Type.Literal('b')]);
      assert.deepEqual(forSerializer(kinds), JSON.parse(JSON.stringify(kinds)));
      const three = Type.Union([Type.String(), Type.Integer(), Type.Null()]);
      assert.deepEqual(forSerializer(three), JSON.parse(JSON.stringify(three)));
      const refOrNull = { anyOf: [{ $ref: 'Name' }, { type: 'null' }] };
      assert.deepEqual(forSerializer(refOrNull), refOrNull);
      const withSiblings = { anyOf: [{ type: 'string' }, { type: 'null' }], minLength: 1 };
      assert.deepEqual(forSerializer(withSiblings), withSiblings);
      // Properties are read by name, whatever they are called.
      const named = forSerializer(Type.Object({ default: Nullable(Type.Integer()), anyOf: Type.String() })) as {
        properties: Record<string, Record<string, unknown>>;
      };
      assert.deepEqual(named.properties.default, { type: 'integer', nullable: true });
      assert.deepEqual(named.properties.anyOf, { type: 'string' });
      // Data (examples, defaults) is not read as schemas.
      const example = { type: 'object', examples: [{ anyOf: [{ type: 'string' }, { type: 'null' }] }] };
      assert.deepEqual(forSerializer(example), example);
    });
  });
});
