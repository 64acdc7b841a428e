// Registering someone else's address (or adding it to one's account) and never verifying it
// must not keep its owner out for good: past UNVERIFIED_ACCOUNT_TTL the hold is gone, at once
// when the address is registered or added again, and by the sweep otherwise.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EMAIL_IN_USE as EMAIL_IN_USE_KEY } from '../../src/accounts/emails/duplicate-email.ts';
import {
  PASSWORD,
  register,
  registerVerified,
  startMailedServer,
  uniqueEmail,
  verificationKey,
  type MailedServer,
} from './account-flows.ts';
import { english } from '../helpers/english.ts';

const EMAIL_IN_USE = english(EMAIL_IN_USE_KEY);

const DAY = 24 * 3_600_000;

describe('unverified accounts and addresses expire (UNVERIFIED_ACCOUNT_TTL=7d)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ UNVERIFIED_ACCOUNT_TTL: '7d' });
  });
  after(() => mailed.close());

  const db = () => mailed.server.server.ctx.db.kysely;
  const accountExists = async (id: number) =>
    (await db().selectFrom('accounts').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

  test("a squatted address can be registered by its owner once the squatter's account has expired; not before", async () => {
    const { server, sink } = mailed;
    const email = uniqueEmail('squatted');
    const squatter = await register(server, email, 'squatter-password-91');
    assert.equal(squatter.status, 201, squatter.text);

    server.clock.advance(7 * DAY - 60_000);
    const early = await register(server, email);
    assert.equal(early.status, 400);
    assert.deepEqual(early.body.email, [EMAIL_IN_USE]);

    server.clock.advance(120_000);
    const owner = await register(server, email);
    assert.equal(owner.status, 201, owner.text);
    assert.equal(await accountExists(squatter.body.id), false);
    // The owner's account works: the newest key verifies it.
    const key = await verificationKey(sink, email, 2);
    const verified = await server.request('POST', '/account/verify-email/', { body: { key, password: PASSWORD } });
    assert.equal(verified.status, 200, verified.text);
  });

  test('the sweep removes never-verified accounts past the TTL, with their addresses and keys; verified accounts stay', async () => {
    const { server } = mailed;
    const idle = await register(server, uniqueEmail('idle'));
    const young = await register(server, uniqueEmail('young'));
    server.clock.advance(DAY);
    const keep = await registerVerified(mailed);
    await server.server.sweeper.runOnce();
    assert.equal(await accountExists(idle.body.id), true, 'not yet expired');

    server.clock.advance(6 * DAY + 1000);
    await server.server.sweeper.runOnce();
    assert.equal(await accountExists(idle.body.id), false);
    assert.equal(await accountExists(young.body.id), false);
    assert.equal(await accountExists(keep.id), true);
    for (const table of ['email_addresses', 'auth_tokens', 'password_reset_keys', 'email_sends'] as const) {
      const rows = await db().selectFrom(table).select('account_id').where('account_id', 'in', [idle.body.id, young.body.id]).execute();
      assert.equal(rows.length, 0, table);
    }
    assert.equal((await server.request('GET', '/account/profile/', { token: keep.token })).status, 200);
  });

  test('an unverified secondary address past the TTL no longer holds the address; a verified one does', async () => {
    const { server } = mailed;
    const holder = await registerVerified(mailed);
    const email = uniqueEmail('held');
    assert.equal((await server.request('POST', '/account/emails/', { token: holder.token, body: { email } })).status, 201);
    assert.equal((await register(server, email)).status, 400);
    server.clock.advance(7 * DAY + 1000);
    const owner = await register(server, email);
    assert.equal(owner.status, 201, owner.text);
    const holderAddresses = await server.request('GET', '/account/emails/', { token: holder.token });
    assert.deepEqual(
      holderAddresses.body.map((address: { email: string }) => address.email),
      [holder.email],
    );
    // The holder's own verified primary address is never released, however old.
    assert.equal((await register(server, holder.email)).status, 400);
  });
});
