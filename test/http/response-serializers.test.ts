// The serializers Fastify is given: its own, built from the schema, for success statuses; the
// whole body as JSON for error statuses, whose schemas only document (error-schemas.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildResponseSerializers } from '../../src/http/response-serializers.ts';

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
});
