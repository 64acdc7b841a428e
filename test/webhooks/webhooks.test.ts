// docs/webhooks.md: operators' webhook endpoints, on a real server (SQLite or PostgreSQL) with
// real mail, delivering to a real receiver that verifies signatures with `standardwebhooks`.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ENDPOINT_DISABLED as ENDPOINT_DISABLED_KEY, UNKNOWN_EVENT as UNKNOWN_EVENT_KEY } from '../../src/admin/webhook-service.ts';
import { formatMessage } from '../../src/i18n/format.ts';
import { queueAccountEvent } from '../../src/webhooks/webhook-events.ts';
import { BACKOFF_MS, DISABLE_AFTER_MS } from '../../src/webhooks/webhook-worker.ts';
import {
  PASSWORD,
  register,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  verificationKey,
  type MailedServer,
  type RegisteredAccount,
} from '../accounts/account-flows.ts';
import { turnOnTotp } from '../accounts/mfa-flows.ts';
import { mailText } from '../helpers/mail-text.ts';
import { waitFor } from '../helpers/wait.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { makeOperator, registerOperator, type Operator } from '../admin/admin-flows.ts';
import { english } from '../helpers/english.ts';
import { PUBLIC_URL } from '../helpers/server.ts';

const ENDPOINT_DISABLED = english(ENDPOINT_DISABLED_KEY);

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('webhooks (/admin/webhooks/)', () => {
  let mailed: MailedServer;
  let operator: Operator;
  let receiver: WebhookReceiver;
  /** Endpoints made by a test are deleted by it, so the next starts with none. */
  const op = (method: string, path: string, body?: unknown) =>
    mailed.server.request(method, path, { token: operator.token, ...(body === undefined ? {} : { body }) });

  before(async () => {
    mailed = await startMailedServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    operator = await registerOperator(mailed);
    receiver = new WebhookReceiver();
    await receiver.listen();
  });
  after(async () => {
    await mailed.close();
    await receiver.close();
  });

  async function addEndpoint(events: string[], url = receiver.url) {
    const created = await op('POST', '/admin/webhooks/', { url, events, description: 'test receiver' });
    assert.equal(created.status, 201, created.text);
    receiver.secrets = [created.body.secret];
    receiver.statuses.length = 0;
    return created.body as { id: number; secret: string };
  }

  async function deliveries(endpointId: number) {
    const list = await op('GET', `/admin/webhooks/${endpointId}/deliveries/`);
    assert.equal(list.status, 200, list.text);
    return list.body as { id: number; event_id: string; type: string; state: string; attempts: number; last_status: number | null }[];
  }

  async function settled(endpointId: number) {
    await waitFor(async () => (await deliveries(endpointId)).every((d) => d.state !== 'pending'), 'every delivery done');
  }

  test('an event carries the account’s language: here the one its registration’s Accept-Language asked for', async () => {
    const endpoint = await addEndpoint(['account.created']);
    const email = uniqueEmail('espanol');
    const made = await mailed.server.request('POST', '/auth/register/', {
      body: { email, password: PASSWORD },
      headers: { 'accept-language': 'es-MX, en;q=0.5' },
    });
    assert.equal(made.status, 201, made.text);
    await waitFor(() => receiver.about(made.body.id).length >= 1, 'the account.created event');
    assert.equal(receiver.about(made.body.id)[0]!.payload.data.account.language, 'es');
    assert.equal((await op('DELETE', `/admin/webhooks/${endpoint.id}/`)).status, 204);
  });

  test('an endpoint: its secret shown once, every change audited, unknown ids 404', async () => {
    const created = await op('POST', '/admin/webhooks/', { url: receiver.url, events: ['*'] });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.secret, SECRET);
    assert.equal(Buffer.from(created.body.secret.slice(6), 'base64').length, 32);
    const { id } = created.body;
    assert.equal(created.headers.get('location'), `${PUBLIC_URL}/admin/webhooks/${id}/`);
    assert.deepEqual(
      { ...created.body, secret: undefined, created_at: undefined },
      {
        id,
        url: receiver.url,
        events: ['*'],
        description: '',
        enabled: true,
        created_at: undefined,
        last_success_at: null,
        last_failure_at: null,
        failing_since: null,
        secret: undefined,
      },
    );
    const list = await op('GET', '/admin/webhooks/');
    assert.equal(list.status, 200);
    assert.ok(list.body.every((e: object) => !('secret' in e)));
    const one = await op('GET', `/admin/webhooks/${id}/`);
    assert.equal(one.status, 200);
    assert.equal(one.body.secret, undefined);
    const patched = await op('PATCH', `/admin/webhooks/${id}/`, { events: ['account.created'], description: 'CRM', enabled: false });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual([patched.body.events, patched.body.description, patched.body.enabled], [['account.created'], 'CRM', false]);
    assert.deepEqual((await op('POST', `/admin/webhooks/${id}/test/`)).body, { non_field_errors: [ENDPOINT_DISABLED] });
    const rotated = await op('POST', `/admin/webhooks/${id}/rotate-secret/`);
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.secret, SECRET);
    assert.notEqual(rotated.body.secret, created.body.secret);
    assert.equal((await op('DELETE', `/admin/webhooks/${id}/`)).status, 204);
    for (const [method, path] of [
      ['GET', `/admin/webhooks/${id}/`],
      ['PATCH', `/admin/webhooks/${id}/`],
      ['DELETE', `/admin/webhooks/${id}/`],
      ['POST', `/admin/webhooks/${id}/rotate-secret/`],
      ['POST', `/admin/webhooks/${id}/test/`],
      ['GET', `/admin/webhooks/${id}/deliveries/`],
      ['POST', `/admin/webhooks/${id}/deliveries/1/retry/`],
      ['GET', '/admin/webhooks/nope/'],
    ] as const) {
      const answer = await op(method, path, method === 'PATCH' ? { description: 'x' } : undefined);
      assert.equal(answer.status, 404, `${method} ${path}: ${answer.text}`);
    }
    const audit = await op('GET', '/admin/audit/?limit=6');
    assert.deepEqual(
      audit.body.map((r: { action: string }) => r.action),
      ['webhook-delete', 'webhook-rotate-secret', 'webhook-update', 'webhook-create'].concat(
        audit.body.slice(4).map((r: { action: string }) => r.action),
      ),
    );
    assert.equal(audit.body[0].reason, `webhook ${id} ${receiver.url}`);
    assert.equal(audit.body[2].reason, `webhook ${id} ${receiver.url}: events ["*"] → ["account.created"]; description; disabled`);
    assert.equal(audit.body[0].operator.id, operator.id);
  });

  test('bad input: 400 naming the field, nothing made', async () => {
    const before = (await op('GET', '/admin/webhooks/')).body.length;
    const cases: [unknown, string][] = [
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: 'ftp://example.com/', events: ['*'] }, 'url'],
      [{ url: receiver.url, events: ['account.nope'] }, 'events'],
      [{ url: receiver.url, events: [] }, 'events'],
      [{ url: receiver.url, events: ['*', 'account.created'] }, 'events'],
      [{ url: receiver.url, events: ['account.created', 'account.created'] }, 'events'],
      [{ url: receiver.url }, 'events'],
      [{ events: ['*'] }, 'url'],
      [{ url: receiver.url, events: '*' }, 'events'],
      [{ url: receiver.url, events: ['*'], enabled: 'no' }, 'enabled'],
    ];
    for (const [body, field] of cases) {
      const answer = await op('POST', '/admin/webhooks/', body);
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${answer.text}`);
      assert.ok(Object.keys(answer.body).includes(field), `${JSON.stringify(body)}: ${answer.text}`);
    }
    assert.deepEqual((await op('POST', '/admin/webhooks/', { url: receiver.url, events: ['account.nope'] })).body, {
      events: [english(UNKNOWN_EVENT_KEY, { event: 'account.nope' })],
    });
    assert.equal((await op('GET', '/admin/webhooks/')).body.length, before);
    const limit = await op('GET', '/admin/webhooks/1/deliveries/?limit=0');
    assert.ok([400, 404].includes(limit.status));
  });

  test('anyone but an operator gets the 404 of an unknown path; an operator without a second factor 403', async () => {
    const person = await registerVerified(mailed, uniqueEmail('person'));
    const bare = await registerVerified(mailed, uniqueEmail('bare-operator'));
    await makeOperator(mailed.server, bare);
    const routes: [string, string, unknown?][] = [
      ['GET', '/admin/webhooks/'],
      ['POST', '/admin/webhooks/', { url: receiver.url, events: ['*'] }],
      ['GET', '/admin/webhooks/1/'],
      ['PATCH', '/admin/webhooks/1/', { enabled: false }],
      ['DELETE', '/admin/webhooks/1/'],
      ['POST', '/admin/webhooks/1/rotate-secret/'],
      ['POST', '/admin/webhooks/1/test/'],
      ['GET', '/admin/webhooks/1/deliveries/'],
      ['POST', '/admin/webhooks/1/deliveries/1/retry/'],
    ];
    for (const [method, path, body] of routes) {
      for (const token of [undefined, person.token]) {
        const answer = await mailed.server.request(method, path, { token, ...(body === undefined ? {} : { body }) });
        assert.equal(answer.status, 404, `${method} ${path}`);
      }
      const bareAnswer = await mailed.server.request(method, path, { token: bare.token, ...(body === undefined ? {} : { body }) });
      assert.equal(bareAnswer.status, 403, `${method} ${path}`);
    }
    assert.equal((await op('GET', '/admin/webhooks/')).body.length, 0);
  });

  test('each event of an account, in order, signed as Standard Webhooks says; account.deleted carries the id alone', async () => {
    const endpoint = await addEndpoint(['*']);
    const email = uniqueEmail('life');
    const registered = await register(mailed.server, email, PASSWORD, { first_name: 'Ada', last_name: 'Lovelace' });
    assert.equal(registered.status, 201, registered.text);
    const id: number = registered.body.id;
    const key = await verificationKey(mailed.sink, email);
    assert.equal((await mailed.server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } })).status, 200);
    const token = (await mailed.server.request('POST', '/auth/login/', { body: { username: email, password: PASSWORD } })).body.token;
    const account: RegisteredAccount = { id, email, password: PASSWORD, token };
    const second = uniqueEmail('second');
    const added = await mailed.server.request('POST', '/account/emails/', { token, body: { email: second } });
    assert.equal(added.status, 201, added.text);
    const secondKey = await verificationKey(mailed.sink, second);
    assert.equal(
      (await mailed.server.request('POST', '/account/verify-email/', { body: { key: secondKey, password: PASSWORD } })).status,
      200,
    );
    const primary = await mailed.server.request('PATCH', `/account/emails/${added.body.id}/`, { token, body: { primary: true } });
    assert.equal(primary.status, 200, primary.text);
    await turnOnTotp(mailed.server, account);
    assert.equal((await op('POST', `/admin/accounts/${id}/disable/`, {})).status, 200);
    // Disabled already: no second event.
    assert.equal((await op('POST', `/admin/accounts/${id}/disable/`, {})).status, 200);
    assert.equal((await op('POST', `/admin/accounts/${id}/enable/`, {})).status, 200);
    assert.equal((await op('DELETE', `/admin/accounts/${id}/`, {})).status, 204);

    const expected = [
      ['account.created', email],
      ['account.verified', email],
      ['account.email_changed', second],
      ['account.second_factor_changed', second],
      ['account.disabled', second],
      ['account.enabled', second],
      ['account.deleted', undefined],
    ];
    await waitFor(() => receiver.about(id).length >= expected.length, 'every event of the account');
    await settled(endpoint.id);
    const got = receiver.about(id);
    assert.deepEqual(
      got.map((r) => [r.payload.type, r.payload.data.account.email]),
      expected,
    );
    for (const r of got) {
      assert.equal(r.verifiedWith.get(endpoint.secret), true, `${r.payload.type} verifies`);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.match(r.id, /^msg_/);
      assert.equal(r.signatures.length, 1);
      assert.ok(!Number.isNaN(Date.parse(r.payload.timestamp)));
    }
    assert.deepEqual(got[0]!.payload.data, { account: { id, email, first_name: 'Ada', last_name: 'Lovelace', language: 'en' } });
    assert.deepEqual(got.at(-1)!.payload, { type: 'account.deleted', timestamp: got.at(-1)!.payload.timestamp, data: { account: { id } } });
    assert.equal(new Set(got.map((r) => r.id)).size, got.length, 'one webhook-id per event');
    const list = await deliveries(endpoint.id);
    assert.ok(list.every((d) => d.state === 'delivered' && d.attempts === 1 && d.last_status === 204));
    assert.deepEqual(Object.keys(list[0]!).sort(), [
      'attempts',
      'created_at',
      'event_id',
      'id',
      'last_error',
      'last_status',
      'next_attempt_at',
      'state',
      'type',
    ]);
    const shown = (await op('GET', `/admin/webhooks/${endpoint.id}/`)).body;
    assert.ok(shown.last_success_at !== null && shown.failing_since === null);
    assert.equal((await op('DELETE', `/admin/webhooks/${endpoint.id}/`)).status, 204);
  });

  test('filters: an endpoint gets only the events it takes', async () => {
    const deletions = await addEndpoint(['account.deleted', 'account.disabled']);
    const person = await registerVerified(mailed, uniqueEmail('filtered'));
    assert.equal((await op('POST', `/admin/accounts/${person.id}/disable/`, {})).status, 200);
    assert.equal((await op('DELETE', `/admin/accounts/${person.id}/`, {})).status, 204);
    await waitFor(() => receiver.about(person.id).length >= 2, 'the two events taken');
    await settled(deletions.id);
    assert.deepEqual(
      receiver.about(person.id).map((r) => r.payload.type),
      ['account.disabled', 'account.deleted'],
    );
    assert.deepEqual(
      (await deliveries(deletions.id)).map((d) => d.type),
      ['account.deleted', 'account.disabled'],
    );
    assert.equal((await op('DELETE', `/admin/webhooks/${deletions.id}/`)).status, 204);
  });

  test('a disabled endpoint’s events wait, and go out in order once it is enabled again; a deleted one’s are gone', async () => {
    const endpoint = await addEndpoint(['*']);
    const person = await registerVerified(mailed, uniqueEmail('paused'));
    await waitFor(() => receiver.about(person.id).length === 2, 'created and verified');
    assert.equal((await op('PATCH', `/admin/webhooks/${endpoint.id}/`, { enabled: false })).status, 200);
    assert.equal((await op('POST', `/admin/accounts/${person.id}/disable/`, {})).status, 200);
    assert.equal((await op('POST', `/admin/accounts/${person.id}/enable/`, {})).status, 200);
    for (let i = 0; i < 3; i++) await mailed.server.server.webhooks.runOnce();
    assert.equal(receiver.about(person.id).length, 2, 'nothing sent while disabled');
    assert.deepEqual(
      (await deliveries(endpoint.id)).slice(0, 2).map((d) => [d.type, d.state, d.attempts]),
      [
        ['account.enabled', 'pending', 0],
        ['account.disabled', 'pending', 0],
      ],
    );
    assert.equal((await op('PATCH', `/admin/webhooks/${endpoint.id}/`, { enabled: true })).status, 200);
    mailed.server.server.webhooks.wake();
    await waitFor(() => receiver.about(person.id).length === 4, 'the waiting events');
    await settled(endpoint.id);
    assert.deepEqual(
      receiver.about(person.id).map((r) => r.payload.type),
      ['account.created', 'account.verified', 'account.disabled', 'account.enabled'],
    );
    // Made paused: the same.
    const paused = await op('POST', '/admin/webhooks/', { url: receiver.url, events: ['*'], enabled: false });
    assert.equal(paused.status, 201, paused.text);
    assert.equal(paused.body.enabled, false);
    assert.equal((await op('POST', `/admin/accounts/${person.id}/disable/`, {})).status, 200);
    await waitFor(async () => (await deliveries(endpoint.id)).length === 5, 'the disable queued for the first endpoint');
    assert.deepEqual(
      (await deliveries(paused.body.id)).map((d) => [d.type, d.state, d.attempts]),
      [['account.disabled', 'pending', 0]],
    );
    assert.equal((await op('DELETE', `/admin/webhooks/${paused.body.id}/`)).status, 204);
    assert.equal((await op('POST', `/admin/accounts/${person.id}/enable/`, {})).status, 200);
    await waitFor(() => receiver.about(person.id).length === 6, 'the first endpoint’s two more');
    // Deleted while disabled: its waiting events go with it (their rows are deleted).
    assert.equal((await op('PATCH', `/admin/webhooks/${endpoint.id}/`, { enabled: false })).status, 200);
    assert.equal((await op('POST', `/admin/accounts/${person.id}/disable/`, {})).status, 200);
    assert.equal((await op('DELETE', `/admin/webhooks/${endpoint.id}/`)).status, 204);
    const { db } = mailed.server.server.ctx;
    assert.equal(
      (await db.kysely.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).execute()).length,
      0,
    );
  });

  test('a failed attempt is retried after 5 s with the same webhook-id, and holds back the account’s later events', async () => {
    const endpoint = await addEndpoint(['account.created', 'account.verified']);
    receiver.statuses.push(500);
    const email = uniqueEmail('retried');
    const registered = await register(mailed.server, email);
    const id: number = registered.body.id;
    await waitFor(async () => (await deliveries(endpoint.id)).some((d) => d.attempts === 1 && d.last_status === 500), 'the first attempt');
    const key = await verificationKey(mailed.sink, email);
    assert.equal((await mailed.server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } })).status, 200);
    // Several passes of the worker: the verified event waits behind the created one.
    for (let i = 0; i < 3; i++) await mailed.server.server.webhooks.runOnce();
    const waiting = await deliveries(endpoint.id);
    assert.deepEqual(
      waiting.map((d) => [d.type, d.state, d.attempts]),
      [
        ['account.verified', 'pending', 0],
        ['account.created', 'pending', 1],
      ],
    );
    assert.equal(receiver.about(id).length, 1);
    mailed.server.clock.advance(BACKOFF_MS[0]!);
    mailed.server.server.webhooks.wake();
    await waitFor(() => receiver.about(id).length >= 3, 'the retry and the next event');
    await settled(endpoint.id);
    const got = receiver.about(id);
    assert.deepEqual(
      got.map((r) => [r.payload.type, r.status]),
      [
        ['account.created', 500],
        ['account.created', 204],
        ['account.verified', 204],
      ],
    );
    assert.equal(got[0]!.id, got[1]!.id, 'the same webhook-id on the retry');
    assert.notEqual(got[1]!.id, got[2]!.id);
    assert.ok(got.every((r) => r.verifiedWith.get(endpoint.secret)));
    assert.deepEqual(
      (await deliveries(endpoint.id)).map((d) => [d.type, d.state, d.attempts]),
      [
        ['account.verified', 'delivered', 1],
        ['account.created', 'delivered', 2],
      ],
    );
    assert.equal((await op('DELETE', `/admin/webhooks/${endpoint.id}/`)).status, 204);
  });

  test('a failed delivery can be retried by an operator; a delivered one is 400', async () => {
    const endpoint = await addEndpoint(['*']);
    // Every attempt fails until the receiver is told otherwise.
    receiver.statuses.push(...Array(20).fill(503));
    const sent = await op('POST', `/admin/webhooks/${endpoint.id}/test/`);
    assert.equal(sent.status, 202, sent.text);
    const failing = async () => (await op('GET', `/admin/webhooks/${endpoint.id}/`)).body;
    await waitFor(async () => (await failing()).failing_since !== null, 'the first attempt failed');
    assert.ok((await failing()).last_failure_at !== null);
    assert.deepEqual(
      (await deliveries(endpoint.id)).map((d) => [d.state, d.attempts, d.last_status]),
      [['pending', 1, 503]],
    );
    receiver.statuses.length = 0;
    // Waiting for its next attempt (5 s away): tried at once.
    assert.equal((await op('POST', `/admin/webhooks/${endpoint.id}/deliveries/${sent.body.id}/retry/`)).status, 204);
    await settled(endpoint.id);
    const [delivery] = await deliveries(endpoint.id);
    assert.deepEqual([delivery!.state, delivery!.attempts, delivery!.event_id], ['delivered', 2, sent.body.event_id]);
    const tests = receiver.received.filter((r) => r.id === sent.body.event_id);
    assert.equal(tests.length, 2);
    assert.equal(tests[1]!.payload.type, 'webhook.test');
    const again = await op('POST', `/admin/webhooks/${endpoint.id}/deliveries/${sent.body.id}/retry/`);
    assert.equal(again.status, 400);
    assert.equal((await op('POST', `/admin/webhooks/${endpoint.id}/deliveries/999999/retry/`)).status, 404);
    assert.equal((await op('GET', '/admin/audit/?limit=1')).body[0].action, 'webhook-retry');
    assert.equal((await op('GET', `/admin/webhooks/${endpoint.id}/`)).body.failing_since, null);
    assert.equal((await op('DELETE', `/admin/webhooks/${endpoint.id}/`)).status, 204);
  });

  test('after a rotation both secrets sign for 24 hours, then the new one alone', async () => {
    const endpoint = await addEndpoint(['*']);
    const rotated = await op('POST', `/admin/webhooks/${endpoint.id}/rotate-secret/`);
    assert.equal(rotated.status, 200);
    receiver.secrets = [endpoint.secret, rotated.body.secret];
    const first = await op('POST', `/admin/webhooks/${endpoint.id}/test/`);
    await waitFor(() => receiver.received.some((r) => r.id === first.body.event_id), 'the test event');
    const during = receiver.received.find((r) => r.id === first.body.event_id)!;
    assert.equal(during.signatures.length, 2);
    assert.equal(during.verifiedWith.get(endpoint.secret), true, 'the old secret verifies');
    assert.equal(during.verifiedWith.get(rotated.body.secret), true, 'the new secret verifies');
    mailed.server.clock.advance(24 * 3_600_000 + 1000);
    const second = await op('POST', `/admin/webhooks/${endpoint.id}/test/`);
    await waitFor(() => receiver.received.some((r) => r.id === second.body.event_id), 'the second test event');
    const later = receiver.received.find((r) => r.id === second.body.event_id)!;
    // standardwebhooks refuses a timestamp a day from the real time (the test clock's): the HMAC is checked by hand.
    const key = Buffer.from(rotated.body.secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${later.id}.${later.timestamp}.${later.body}`).digest('base64');
    assert.deepEqual(later.signatures, [`v1,${expected}`]);
    assert.equal((await op('DELETE', `/admin/webhooks/${endpoint.id}/`)).status, 204);
  });

  test('nothing for a refused change, nor for one that rolled back', async () => {
    const endpoint = await addEndpoint(['*']);
    const person = await registerVerified(mailed, uniqueEmail('refused'));
    await waitFor(() => receiver.about(person.id).length === 2, 'created and verified');
    // Refused: the address is taken; an operator may not disable their own account; nothing to turn off.
    assert.equal((await register(mailed.server, person.email)).status, 400);
    assert.equal((await op('POST', `/admin/accounts/${operator.id}/disable/`, {})).status, 400);
    assert.equal((await op('POST', `/admin/accounts/${person.id}/mfa-off/`, {})).status, 400);
    // Rolled back after the event was queued in its transaction.
    const { ctx } = mailed.server.server;
    await assert.rejects(
      ctx.db.transaction(async (trx) => {
        await queueAccountEvent(ctx, trx, 'account.disabled', person.id);
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    ctx.outbox.wake();
    // A later event of the same account goes through the same queue: once it is there, nothing else is.
    assert.equal((await op('POST', `/admin/accounts/${person.id}/enable/`, {})).status, 200);
    assert.equal((await op('POST', `/admin/accounts/${person.id}/disable/`, {})).status, 200);
    await waitFor(() => receiver.about(person.id).length >= 3, 'the disable');
    await settled(endpoint.id);
    assert.deepEqual(
      receiver.about(person.id).map((r) => r.payload.type),
      ['account.created', 'account.verified', 'account.disabled'],
    );
    assert.equal((await op('DELETE', `/admin/webhooks/${endpoint.id}/`)).status, 204);
  });

  test('an endpoint failing for 5 days straight is disabled, and the operators are told by e-mail, each in their language', async () => {
    const german = await mailed.server.request('PATCH', '/account/profile/', { token: operator.token, body: { language: 'de' } });
    assert.equal(german.status, 200, german.text);
    const endpoint = await addEndpoint(['*']);
    receiver.statuses.push(...Array(10).fill(500));
    const { ctx } = mailed.server.server;
    const person = await registerVerified(mailed, uniqueEmail('unheard'));
    await waitFor(async () => (await op('GET', `/admin/webhooks/${endpoint.id}/`)).body.failing_since !== null, 'the first failure');
    mailed.server.clock.advance(DISABLE_AFTER_MS);
    await ctx.db.transaction((trx) => queueAccountEvent(ctx, trx, 'account.second_factor_changed', person.id));
    // The first delivery of the account (failed, retried after its back-off) comes first: make everything due.
    mailed.server.clock.advance(BACKOFF_MS[BACKOFF_MS.length - 1]!);
    ctx.outbox.wake();
    await waitFor(async () => (await op('GET', `/admin/webhooks/${endpoint.id}/`)).body.enabled === false, 'the endpoint disabled');
    const subject = formatMessage('de', 'email', 'webhookDisabled.subject');
    const mail = mailText((await mailed.sink.waitFor((m) => m.to.includes(operator.email) && mailText(m.raw).subject === subject)).raw);
    assert.ok(mail.text.includes(`Beim Webhook-Endpunkt ${receiver.url} ist seit dem `), mail.text);
    await mailed.server.request('PATCH', '/account/profile/', { token: operator.token, body: { language: 'en' } });
    receiver.statuses.length = 0;
    const heard = receiver.received.length;
    ctx.outbox.wake();
    await mailed.server.server.webhooks.runOnce();
    assert.equal(receiver.received.length, heard, 'nothing sent to a disabled endpoint');
    assert.equal((await op('DELETE', `/admin/webhooks/${endpoint.id}/`)).status, 204);
  });
});
