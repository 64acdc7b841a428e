// The typed client the web client uses (web/src/api/schema.d.ts) is generated from the
// service's own OpenAPI document and checked in: regenerated here, it must be the same text,
// or a route or schema changed without `npm run generate:client`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CLIENT_SCHEMA_FILE, clientSchemaText, GENERATE_COMMAND } from '../../scripts/generate-client.ts';
import { openApiDocument } from '../../scripts/openapi-document.ts';

test('the checked-in client types match the OpenAPI document', async () => {
  const expected = await clientSchemaText(await openApiDocument());
  const checkedIn = readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
  if (checkedIn !== expected) {
    const lines = checkedIn.split('\n');
    const at = expected.split('\n').findIndex((line, index) => line !== lines[index]);
    assert.fail(
      `web/src/api/schema.d.ts is out of date (first difference at line ${at + 1}): run \`${GENERATE_COMMAND}\` and commit the result`,
    );
  }
});

test('the generation is deterministic', async () => {
  const document = await openApiDocument();
  assert.equal(await clientSchemaText(document), await clientSchemaText(structuredClone(document)));
});
