// One text rule for every string of every body, the same on both databases (a NUL byte was a
// 500 on PostgreSQL and stored as is on SQLite), and bodies nested too deeply refused without
// exhausting the stack (10,000 levels were a 500 on both).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UNCLEAN_TEXT as UNCLEAN_TEXT_KEY } from '../../src/http/body-normalisation.ts';
import { createImageItem, createListItem, createOwner, createProfile, createTopic, pathOf, type Owner } from '../app-data/fixtures.ts';
import { png, upload } from '../media/media-fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { english } from '../helpers/english.ts';

const UNCLEAN_TEXT = english(UNCLEAN_TEXT_KEY);

const UNCLEAN = ['nul\u0000byte', 'bell\u0007', 'escape\u001b[31m', 'delete\u007f', 'c1\u0085', 'lone \ud800 surrogate', 'lone \udc00 low'];

describe('the text rule and the nesting limit', () => {
  let server: TestServer;
  let owner: Owner;
  let cases: Array<{ method: string; path: string; body: Record<string, unknown>; field: string[]; anonymous?: boolean }>;

  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
    const profile = await createProfile(server, owner);
    const topic = await createTopic(server, owner, profile.id);
    const list = await createListItem(server, owner, topic.id);
    const image = await createImageItem(server, owner, topic.id);
    cases = [
      {
        method: 'POST',
        path: '/auth/register/',
        body: { email: 'x@example.com', password: 'violet-lantern-47', first_name: 'X' },
        field: ['first_name'],
        anonymous: true,
      },
      {
        method: 'POST',
        path: '/auth/login/',
        body: { password: 'violet-lantern-47', email: 'x@example.com' },
        field: ['username'],
        anonymous: true,
      },
      { method: 'POST', path: '/auth/login/', body: { username: 'x@example.com' }, field: ['password'], anonymous: true },
      { method: 'POST', path: '/account/verify-email/', body: { password: 'x' }, field: ['key'], anonymous: true },
      { method: 'POST', path: '/account/change-password/', body: { new_password: 'violet-lantern-48' }, field: ['key'], anonymous: true },
      { method: 'PATCH', path: '/account/profile/', body: {}, field: ['last_name'] },
      { method: 'POST', path: '/auth/messaging/', body: {}, field: ['nonce'] },
      { method: 'POST', path: '/app/users/', body: {}, field: ['quote'] },
      { method: 'PATCH', path: `/app/users/${owner.appUserId}/`, body: {}, field: ['name'] },
      { method: 'POST', path: `/app/users/${owner.appUserId}/profiles/`, body: {}, field: ['name'] },
      { method: 'POST', path: `/app/profiles/${profile.id}/topics/`, body: { topic_type: 3 }, field: ['name'] },
      { method: 'PATCH', path: pathOf(image.url), body: {}, field: ['image_content', 'description'] },
      { method: 'PATCH', path: pathOf(list.url), body: {}, field: ['list_content', 'entries', '1', 'text'] },
      { method: 'POST', path: `/app/items/${list.id}/list-entries/`, body: {}, field: ['text'] },
      { method: 'POST', path: `/app/users/${owner.appUserId}/emergency-items/`, body: { name: 'E' }, field: ['description'] },
      { method: 'POST', path: `/app/users/${owner.appUserId}/emergency-contacts/`, body: { phone_number: '123456789' }, field: ['name'] },
    ];
  });
  after(() => server.close());

  /** Sets body[a][b]… = text, making lists for numeric segments (the other elements valid). */
  function withText(body: Record<string, unknown>, field: string[], text: string): Record<string, unknown> {
    const copy = structuredClone(body);
    let node: any = copy;
    field.forEach((segment, i) => {
      if (i === field.length - 1) {
        node[segment] = text;
      } else if (/^\d+$/.test(field[i + 1]!)) {
        node[segment] = Array.from({ length: Number(field[i + 1]) + 1 }, () => ({ text: 'fine' }));
        node = node[segment];
      } else {
        node[segment] ??= {};
        node = node[segment];
      }
    });
    return copy;
  }

  /** The error placed where the field is, as the 400 body nests it. */
  function errorAt(body: any, field: string[]): unknown {
    return field.reduce((node, segment) => node?.[segment], body);
  }

  test('control characters and unpaired surrogates are a 400 under the field, on every route, anonymous ones included', async () => {
    for (const { method, path, body, field, anonymous } of cases) {
      for (const text of UNCLEAN) {
        const response = await server.request(method, path, {
          token: anonymous ? undefined : owner.token,
          body: withText(body, field, text),
        });
        assert.equal(response.status, 400, `${method} ${path} ${JSON.stringify(text)}: ${response.status} ${response.text}`);
        assert.deepEqual(errorAt(response.body, field), [UNCLEAN_TEXT], `${method} ${path}: ${response.text}`);
      }
    }
  });

  test('nothing unclean was stored', async () => {
    const tables = [
      'app_users',
      'profiles',
      'topics',
      'items',
      'list_entries',
      'emergency_items',
      'emergency_contacts',
      'accounts',
    ] as const;
    for (const table of tables) {
      const rows = await server.server.ctx.db.kysely.selectFrom(table).selectAll().execute();
      for (const row of rows) {
        for (const value of Object.values(row)) {
          if (typeof value === 'string')
            assert.ok(!/[\u0000\u0007\u001b\u007f\u0085]/.test(value) && value.isWellFormed(), `${table}: ${JSON.stringify(value)}`);
        }
      }
    }
  });

  test('tab and line breaks are text: they are kept inside a string', async () => {
    const response = await server.request(
      'PATCH',
      pathOf((await createImageItem(server, owner, (await createTopic(server, owner, (await createProfile(server, owner)).id)).id)).url),
      {
        token: owner.token,
        body: { image_content: { description: '  line one\nline\ttwo\r\n  ' } },
      },
    );
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.image_content.description, 'line one\nline\ttwo');
  });

  test('an upload name breaks the same rule the same way', async () => {
    const response = await upload(server, owner.token, owner.appUserId, { name: 'photo\u0000.png', file: png() });
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(response.body, { name: [UNCLEAN_TEXT] });
    const trimmed = await upload(server, owner.token, owner.appUserId, { name: '  photo.png  ', file: png() });
    assert.equal(trimmed.status, 201, trimmed.text);
    assert.equal(trimmed.body.name, 'photo.png');
  });

  test('a body nested 10,000 levels deep is a 400, in arrays or objects, on any route; the service answers on', async () => {
    const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
    const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    for (const raw of [deepArray, deepObject, `{"name": ${deepArray}}`]) {
      for (const [method, path, token] of [
        ['POST', '/auth/login/', undefined],
        ['POST', '/app/users/', owner.token],
        ['PATCH', `/app/users/${owner.appUserId}/`, owner.token],
      ] as const) {
        const response = await server.request(method, path, { token, raw, headers: { 'content-type': 'application/json' } });
        assert.equal(response.status, 400, `${method} ${path}: ${response.status} ${response.text.slice(0, 200)}`);
        assert.match(response.body.detail, /nested more than 32 levels/);
      }
    }
    assert.equal((await server.request('GET', '/health')).status, 200);
  });

  test('a body nested as deep as the deepest shape is fine; unknown deep fields under the limit are ignored', async () => {
    const topic = await createTopic(server, owner, (await createProfile(server, owner)).id);
    const nested = JSON.parse('{"x":'.repeat(25) + '1' + '}'.repeat(25));
    const response = await server.request('POST', `/app/topics/${topic.id}/items/`, {
      token: owner.token,
      body: { name: 'L', list_content: { entries: [{ text: 'a', extra: nested }] }, extra: nested },
    });
    assert.equal(response.status, 201, response.text);
  });
});
