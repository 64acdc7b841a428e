// The live streams one client address may hold open at once (EVENT_STREAMS_PER_IP), whatever the
// accounts: an address as seen under TRUST_PROXY, an IPv6 client by its /64; 429 beyond, with
// Retry-After, until one closes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import { openStream, type OpenStream } from './event-reader.ts';

const eventsPath = (owner: Owner) => `/app/users/${owner.appUserId}/events/`;
const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** The status of a stream opened from `ip`; closed at once if it opened. */
async function statusOf(server: TestServer, owner: Owner, ip: string): Promise<number> {
  const stream = await openStream(server, eventsPath(owner), owner.token, undefined, from(ip));
  stream.close();
  return stream.status;
}

describe('live streams per client address', () => {
  describe('behind a trusted proxy (EVENT_STREAMS_PER_IP=2)', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ EVENT_STREAMS_PER_IP: '2', EVENT_STREAMS_PER_ACCOUNT: '10', TRUST_PROXY: 'true' });
    });
    after(() => server.close());

    test('a third stream from one address is 429, whichever account opens it; another address is not held back', async () => {
      const owners = [await createOwner(server), await createOwner(server), await createOwner(server)];
      const open: OpenStream[] = [];
      for (const owner of owners.slice(0, 2)) {
        const stream = await openStream(server, eventsPath(owner), owner.token, undefined, from('203.0.113.7'));
        assert.equal(stream.status, 200);
        open.push(stream);
      }
      assert.equal(await statusOf(server, owners[2]!, '203.0.113.7'), 429);
      const refused = await server.request('GET', eventsPath(owners[2]!), {
        token: owners[2]!.token,
        headers: from('203.0.113.7'),
      });
      assert.equal(refused.status, 429, refused.text);
      assert.ok(refused.headers.get('retry-after'));
      assert.match(refused.body.detail, /from one address/);

      const elsewhere = await openStream(server, eventsPath(owners[2]!), owners[2]!.token, undefined, from('203.0.113.8'));
      assert.equal(elsewhere.status, 200, 'another address has its own count');
      elsewhere.close();

      open[0]!.close();
      await waitFor(async () => {
        const again = await openStream(server, eventsPath(owners[2]!), owners[2]!.token, undefined, from('203.0.113.7'));
        again.close();
        return again.status === 200;
      }, 'a closed stream frees its place');
      for (const stream of open) stream.close();
    });

    test('an IPv6 client counts by its /64', async () => {
      const owner = await createOwner(server);
      const open: OpenStream[] = [];
      for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9']) {
        const stream = await openStream(server, eventsPath(owner), owner.token, undefined, from(ip));
        assert.equal(stream.status, 200);
        open.push(stream);
      }
      assert.equal(await statusOf(server, owner, '2001:db8:1:2::77'), 429);
      const other = await openStream(server, eventsPath(owner), owner.token, undefined, from('2001:db8:1:3::1'));
      assert.equal(other.status, 200, 'another /64');
      other.close();
      for (const stream of open) stream.close();
    });
  });

  describe('without TRUST_PROXY', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ EVENT_STREAMS_PER_IP: '1', EVENT_STREAMS_PER_ACCOUNT: '10' });
    });
    after(() => server.close());

    test('X-Forwarded-For does not dodge the count: the connection address counts', async () => {
      const owner = await createOwner(server);
      const first = await openStream(server, eventsPath(owner), owner.token, undefined, from('203.0.113.7'));
      assert.equal(first.status, 200);
      assert.equal(await statusOf(server, owner, '203.0.113.8'), 429);
      first.close();
    });
  });
});
