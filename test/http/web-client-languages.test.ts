// Every page the service serves names the languages it speaks (LANGUAGES), its default
// (DEFAULT_LANGUAGE) first, so that the web client offers only those and falls back to the
// default (web/README.md, "Languages").
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../helpers/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('the languages a page names', () => {
  let dir: string;
  before(() => {
    dir = tempDir('profile-service-web-languages-');
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html lang="en"><head><title>t</title></head><body><div id="app"></div></body></html>',
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function metaOf(env: Record<string, string>, path: string): Promise<string[]> {
    const server = await startTestServer({ WEB_CLIENT_DIR: dir, ...env });
    try {
      const response = await server.request('GET', path);
      assert.equal(response.status, 200, path);
      return [...response.text.matchAll(/<meta name="languages" content="([^"]*)">/g)].map((match) => match[1]!);
    } finally {
      await server.close();
    }
  }

  test('by default all four, English first, in the head', async () => {
    assert.deepEqual(await metaOf({}, '/sign-in'), ['en,de,fr,es']);
  });

  test('LANGUAGES and DEFAULT_LANGUAGE: only those, the default first, on the emergency page too', async () => {
    const env = { LANGUAGES: 'fr,es,de', DEFAULT_LANGUAGE: 'de' };
    assert.deepEqual(await metaOf(env, '/'), ['de,fr,es']);
    assert.deepEqual(await metaOf(env, '/emergency/AAAAAAAAAAAAAAAAAAAAAA'), ['de,fr,es']);
  });
});
