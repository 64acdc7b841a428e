// docs/emergency-links.md, "What a link shows": `emergency_items` and `emergency_contacts` on a
// link, null (every one, the default) or lists of ids of the app user. The public view shows only
// those, in the owner's order whatever the order written; an id of another app user is 400
// under its field; deleting an item or contact removes it from every list.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { create, createOwner, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createLink, readPublic } from './emergency-fixtures.ts';

describe('what an emergency link shows', () => {
  let server: TestServer;
  let owner: Owner;
  let other: Owner;
  let items: number[];
  let contacts: number[];
  let foreignItem: number;
  let foreignContact: number;
  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server);
    other = await createOwner(server);
    items = [];
    for (const name of ['Allergies', 'Medication', 'Blood type']) {
      items.push((await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-items/`, { name, description: name })).id);
    }
    contacts = [];
    for (const name of ['Ada', 'Ben', 'Cleo']) {
      contacts.push(
        (await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-contacts/`, { name, phone_number: '447700900123' })).id,
      );
    }
    foreignItem = (await create(server, other.token, `/app/users/${other.appUserId}/emergency-items/`, { name: 'Theirs' })).id;
    foreignContact = (
      await create(server, other.token, `/app/users/${other.appUserId}/emergency-contacts/`, {
        name: 'Theirs',
        phone_number: '447700900124',
      })
    ).id;
  });
  after(() => server?.close());

  const names = (list: { name: string }[]) => list.map((entry) => entry.name);

  test('by default a link shows every item and contact (null); a chosen list shows only those, in the owner’s order', async () => {
    const all = await createLink(server, owner, { expires_at: null });
    assert.equal(all.emergency_items, null);
    assert.equal(all.emergency_contacts, null);
    const everything = await readPublic(server, all.token);
    assert.deepEqual(names(everything.body.emergency_items), ['Allergies', 'Medication', 'Blood type']);
    assert.deepEqual(names(everything.body.emergency_contacts), ['Ada', 'Ben', 'Cleo']);

    const card = await createLink(server, owner, {
      label: 'Wallet card',
      emergency_items: [items[2], items[0], items[2]],
      emergency_contacts: [contacts[1]],
    });
    assert.deepEqual(card.emergency_items, [items[0], items[2]], 'in the owner’s order, once each');
    assert.deepEqual(card.emergency_contacts, [contacts[1]]);
    const shown = await readPublic(server, card.token);
    assert.equal(shown.status, 200, shown.text);
    assert.deepEqual(names(shown.body.emergency_items), ['Allergies', 'Blood type']);
    assert.deepEqual(names(shown.body.emergency_contacts), ['Ben']);
    const detail = await server.request('GET', `/app/emergency-links/${card.id}/`, { token: owner.token });
    assert.deepEqual(detail.body.emergency_items, [items[0], items[2]]);
    const listed = await server.request('GET', `/app/users/${owner.appUserId}/emergency-links/`, { token: owner.token });
    const row = listed.body.find((link: { id: number }) => link.id === card.id);
    assert.deepEqual([row.emergency_items, row.emergency_contacts], [[items[0], items[2]], [contacts[1]]]);
    assert.equal(listed.body.find((link: { id: number }) => link.id === all.id).emergency_items, null);
  });

  test('PATCH changes a list, empties it, or sets it back to every one (null); a list left out stays', async () => {
    const link = await createLink(server, owner, { emergency_items: [items[1]] });
    const patch = async (body: object) => {
      const response = await server.request('PATCH', `/app/emergency-links/${link.id}/`, { token: owner.token, body });
      assert.equal(response.status, 200, response.text);
      return response.body;
    };
    let body = await patch({ emergency_contacts: [contacts[2], contacts[0]] });
    assert.deepEqual(body.emergency_items, [items[1]], 'left as it was');
    assert.deepEqual(body.emergency_contacts, [contacts[0], contacts[2]]);
    assert.deepEqual(names((await readPublic(server, link.token)).body.emergency_contacts), ['Ada', 'Cleo']);
    body = await patch({ emergency_items: [] });
    assert.deepEqual(body.emergency_items, []);
    assert.deepEqual((await readPublic(server, link.token)).body.emergency_items, [], 'an empty list shows none');
    body = await patch({ emergency_items: null, label: 'Back to all' });
    assert.equal(body.emergency_items, null);
    assert.equal(body.label, 'Back to all');
    assert.deepEqual(names((await readPublic(server, link.token)).body.emergency_items), ['Allergies', 'Medication', 'Blood type']);
  });

  test('an id of another app user, or of nothing, is 400 under its field; nothing changes', async () => {
    const refused = await server.request('POST', `/app/users/${owner.appUserId}/emergency-links/`, {
      token: owner.token,
      body: { emergency_items: [items[0], foreignItem] },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.ok(refused.body.emergency_items, refused.text);
    const before = await server.request('GET', `/app/users/${owner.appUserId}/emergency-links/`, { token: owner.token });

    const link = await createLink(server, owner, { emergency_contacts: [contacts[0]] });
    // Ids no row can have (beyond PostgreSQL's integer, or 0) are foreign too, not a 500.
    for (const body of [
      { emergency_contacts: [foreignContact] },
      { emergency_contacts: [999_999_999] },
      { emergency_contacts: [2_147_483_648] },
      { emergency_contacts: [1e308, contacts[0]] },
      { emergency_contacts: [0] },
    ]) {
      const response = await server.request('PATCH', `/app/emergency-links/${link.id}/`, { token: owner.token, body });
      assert.equal(response.status, 400, response.text);
      assert.ok(response.body.emergency_contacts, response.text);
    }
    const malformed = await server.request('PATCH', `/app/emergency-links/${link.id}/`, {
      token: owner.token,
      body: { emergency_items: ['one'] },
    });
    assert.equal(malformed.status, 400, malformed.text);
    const after = await server.request('GET', `/app/emergency-links/${link.id}/`, { token: owner.token });
    assert.deepEqual(after.body.emergency_contacts, [contacts[0]], 'unchanged');
    const listed = await server.request('GET', `/app/users/${owner.appUserId}/emergency-links/`, { token: owner.token });
    assert.equal(listed.body.length, before.body.length + 1, 'the refused create made no link');
  });

  test('deleting an item or a contact removes it from every list', async () => {
    const item = (await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-items/`, { name: 'Soon gone' })).id;
    const contact = (
      await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-contacts/`, {
        name: 'Gone too',
        phone_number: '447700900125',
      })
    ).id;
    const first = await createLink(server, owner, { emergency_items: [items[0], item], emergency_contacts: [contact] });
    const second = await createLink(server, owner, { emergency_items: [item] });
    assert.equal((await server.request('DELETE', `/app/emergency-items/${item}/`, { token: owner.token })).status, 204);
    assert.equal((await server.request('DELETE', `/app/emergency-contacts/${contact}/`, { token: owner.token })).status, 204);
    const one = await server.request('GET', `/app/emergency-links/${first.id}/`, { token: owner.token });
    assert.deepEqual(one.body.emergency_items, [items[0]]);
    assert.deepEqual(one.body.emergency_contacts, [], 'still chosen, now none');
    const two = await server.request('GET', `/app/emergency-links/${second.id}/`, { token: owner.token });
    assert.deepEqual(two.body.emergency_items, []);
    const shown = await readPublic(server, first.token);
    assert.deepEqual(names(shown.body.emergency_items), ['Allergies']);
    assert.deepEqual(shown.body.emergency_contacts, []);
  });
});
