// What the document says of itself: its version is the package's (a client generated from
// /openapi.json names the release it was generated from), and its text cites no section of a
// document its readers do not have.
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

test('no description in /openapi.json cites a section of another document', async () => {
  const text = (await server.request('GET', '/openapi.json')).text;
  assert.deepEqual(text.match(/.{0,40}(contract|§\s*\d).{0,20}/gi) ?? [], []);
});
