// The document's version is the package's: a client generated from /openapi.json names the
// release it was generated from.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test("/openapi.json's info.version is package.json's version", async () => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const response = await server.request('GET', '/openapi.json');
  assert.equal(response.status, 200);
  assert.equal(response.body.info.version, version);
});
