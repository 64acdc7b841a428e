// docs/emergency-links.md with docs/accounts.md: deleting the app user or the account removes its links and their views
// (the tables' foreign keys cascade), and the owner's export lists the links, never a token,
// with their views.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import yauzl from 'yauzl';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createLink, readPublic } from './emergency-fixtures.ts';

async function accountJson(archive: Buffer): Promise<any> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(archive, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName !== 'account.json') return zip.readEntry();
      zip.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      });
    });
    zip.on('end', () => reject(new Error('no account.json')));
    zip.readEntry();
  });
}

describe('emergency links over an account’s life', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
  });
  after(() => server?.close());

  const db = () => server.server.ctx.db.kysely;
  async function rowsOf(accountId: number) {
    const links = await db().selectFrom('emergency_links').select('id').where('account_id', '=', accountId).execute();
    const views = await db().selectFrom('emergency_link_views').select('id').where('account_id', '=', accountId).execute();
    return { links: links.length, views: views.length };
  }

  async function ownerWithViewedLinks(): Promise<{ owner: Owner; tokens: string[] }> {
    const owner = await createOwner(server);
    const tokens: string[] = [];
    for (const label of ['Card', 'Bracelet']) {
      const link = await createLink(server, owner, { label });
      assert.equal((await readPublic(server, link.token)).status, 200);
      tokens.push(link.token);
    }
    assert.deepEqual(await rowsOf(owner.id), { links: 2, views: 2 });
    return { owner, tokens };
  }

  test('deleting the app user removes its links and their views; the links answer 404', async () => {
    const { owner, tokens } = await ownerWithViewedLinks();
    const removed = await server.request('DELETE', `/app/users/${owner.appUserId}/`, { token: owner.token });
    assert.equal(removed.status, 204, removed.text);
    assert.deepEqual(await rowsOf(owner.id), { links: 0, views: 0 });
    for (const token of tokens) assert.equal((await readPublic(server, token)).status, 404);
  });

  test('deleting the account removes its links and their views; the links answer 404', async () => {
    const { owner, tokens } = await ownerWithViewedLinks();
    const removed = await server.request('DELETE', '/account/', { token: owner.token, body: { password: owner.password } });
    assert.equal(removed.status, 204, removed.text);
    assert.deepEqual(await rowsOf(owner.id), { links: 0, views: 0 });
    for (const token of tokens) assert.equal((await readPublic(server, token)).status, 404);
  });

  test('the export lists each link as the API answers it, less its URL, with its views; never a token or a hash', async () => {
    const owner = await createOwner(server);
    const link = await createLink(server, owner, { label: 'Card', pin: '1234' });
    const unused = await createLink(server, owner, { label: 'Spare', expires_at: null });
    await server.request('POST', `/public/emergency/${link.token}/`, {
      body: { pin: '1234' },
      headers: { 'x-forwarded-for': '203.0.113.8', 'user-agent': 'Responder/3' },
    });
    const response = await fetch(`${server.url}/account/export/`, { headers: { authorization: `Token ${owner.token}` } });
    assert.equal(response.status, 200);
    const document = await accountJson(Buffer.from(await response.arrayBuffer()));
    const [appUser] = document.app_users;
    const api = async (path: string) => (await server.request('GET', path, { token: owner.token })).body;
    const withoutUrl = ({ url: _url, ...rest }: { url: string }) => rest;
    assert.deepEqual(appUser.emergency_links, [
      { ...withoutUrl(await api(`/app/emergency-links/${link.id}/`)), view_log: await api(`/app/emergency-links/${link.id}/views/`) },
      { ...withoutUrl(await api(`/app/emergency-links/${unused.id}/`)), view_log: [] },
    ]);
    assert.deepEqual(appUser.emergency_links[0].view_log, [
      { viewed_at: new Date(server.clock.now()).toISOString(), ip_address: '203.0.113.8', user_agent: 'Responder/3' },
    ]);
    const text = JSON.stringify(document);
    const hashes = await db().selectFrom('emergency_links').select(['token_hash', 'pin_hash']).where('account_id', '=', owner.id).execute();
    for (const secret of [link.token, unused.token, ...hashes.flatMap((row) => [row.token_hash, row.pin_hash ?? 'none'])]) {
      assert.ok(!text.includes(secret), 'no token or hash in the export');
    }
  });
});
