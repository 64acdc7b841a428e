// docs/webhooks.md: where a webhook may go. Without WEBHOOK_ALLOW_PRIVATE only https:// to public
// addresses, checked when the endpoint is saved and again at every delivery after resolution; with
// it, http:// and private addresses too (development, tests). Deliveries follow no redirect.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { isPrivateAddress, resolveDeliveryAddress, RefusedAddress } from '../../src/webhooks/webhook-address.ts';
import { MAX_RESPONSE_BYTES, postWebhook } from '../../src/webhooks/webhook-http.ts';
import { startMailedServer, type MailedServer } from '../accounts/account-flows.ts';
import { registerOperator, type Operator } from '../admin/admin-flows.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

describe('webhook addresses', () => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = new WebhookReceiver();
    await receiver.listen();
  });
  after(() => receiver.close());

  test('private, loopback, link-local, CGNAT, metadata, unspecified and special IPv6 addresses are refused; public ones pass', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:8.8.8.8',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fd00:ec2::254',
      'not an address',
    ]) {
      assert.equal(isPrivateAddress(address), true, address);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888']) {
      assert.equal(isPrivateAddress(address), false, address);
    }
  });

  test('a delivery resolves the name and refuses a private address unless allowed', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://[::1]/hook',
      'https://10.0.0.1/',
      'http://8.8.8.8/hook',
    ]) {
      await assert.rejects(resolveDeliveryAddress(url, false), RefusedAddress, url);
    }
    assert.deepEqual(await resolveDeliveryAddress('https://8.8.8.8/hook', false), { address: '8.8.8.8', family: 4 });
    assert.equal((await resolveDeliveryAddress('http://127.0.0.1:1/hook', true)).address, '127.0.0.1');
    await assert.rejects(resolveDeliveryAddress('ftp://127.0.0.1/', true), RefusedAddress);
    await assert.rejects(resolveDeliveryAddress('https://user:pw@8.8.8.8/', false), RefusedAddress);
  });

  test('127.0.0.1 gets nothing without WEBHOOK_ALLOW_PRIVATE, and the event with it', async () => {
    const before = receiver.received.length;
    const refused = await postWebhook(receiver.url, { 'webhook-id': 'msg_refused' }, '{}', false);
    assert.equal(refused.status, null);
    assert.match(refused.error!, /https/);
    const refusedHttps = await postWebhook(receiver.url.replace('http:', 'https:'), { 'webhook-id': 'msg_refused' }, '{}', false);
    assert.match(refusedHttps.error!, /127\.0\.0\.1.*private/);
    assert.equal(receiver.received.length, before);
    const allowed = await postWebhook(receiver.url, { 'webhook-id': 'msg_allowed' }, '{}', true);
    assert.deepEqual(allowed, { status: 204, error: null });
    assert.equal(receiver.received.at(-1)!.id, 'msg_allowed');
  });

  test('a redirect is not followed, a slow receiver times out, a large answer is read only in part', async () => {
    let hits = 0;
    const server = http.createServer((request, response) => {
      hits++;
      if (request.url === '/redirect') response.writeHead(307, { location: '/elsewhere' }).end();
      else if (request.url === '/slow') setTimeout(() => response.writeHead(204).end(), 2000).unref();
      else response.writeHead(500).end('x'.repeat(MAX_RESPONSE_BYTES * 100));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const redirected = await postWebhook(`${base}/redirect`, {}, '{}', true);
      assert.equal(redirected.status, 307);
      assert.equal(hits, 1, 'the redirect was not followed');
      const slow = await postWebhook(`${base}/slow`, {}, '{}', true, 200);
      assert.deepEqual(slow, { status: null, error: 'no answer within 0.2 s' });
      const large = await postWebhook(`${base}/large`, {}, '{}', true);
      assert.equal(large.status, 500);
      assert.ok(large.error!.length < 300);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  describe('endpoints on a server without WEBHOOK_ALLOW_PRIVATE', () => {
    let mailed: MailedServer;
    let operator: Operator;
    before(async () => {
      mailed = await startMailedServer();
      operator = await registerOperator(mailed);
    });
    after(() => mailed.close());

    test('http:// and private addresses are refused with 400; an https:// URL to a public address is taken', async () => {
      for (const url of [
        receiver.url,
        'https://127.0.0.1/hook',
        'https://localhost/hook',
        'https://[::1]/',
        'https://169.254.169.254/latest',
        'http://example.com/',
      ]) {
        const answer = await mailed.server.request('POST', '/admin/webhooks/', { token: operator.token, body: { url, events: ['*'] } });
        assert.equal(answer.status, 400, url);
        assert.deepEqual(Object.keys(answer.body), ['url'], url);
      }
      const taken = await mailed.server.request('POST', '/admin/webhooks/', {
        token: operator.token,
        body: { url: 'https://8.8.8.8/hook', events: ['account.created'] },
      });
      assert.equal(taken.status, 201, taken.text);
      const patched = await mailed.server.request('PATCH', `/admin/webhooks/${taken.body.id}/`, {
        token: operator.token,
        body: { url: 'https://10.0.0.1/hook' },
      });
      assert.equal(patched.status, 400);
    });
  });
});
