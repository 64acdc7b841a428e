// docs/emergency-links.md: a link shows the emergency information and nothing else of the account. The
// public body is compared, at every depth, against an explicit list of the fields it may have;
// any other field fails. The account around it holds all it can (names, addresses, a quote,
// profiles with topics and items, a private profile, gallery media no emergency item uses,
// an accessor), and none of that may appear in the body, by field or by value.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { create, createImageItem, createListItem, createOwner, createProfile, createTopic, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { png, upload } from '../media/media-fixtures.ts';
import { createLink, readPublic, share, unlock } from './emergency-fixtures.ts';

/** Every field path the public body may hold ("[]" for the elements of a list). */
const ALLOWED = new Set([
  'name',
  'viewed_at',
  'language',
  'emergency_items',
  'emergency_items[]',
  'emergency_items[].name',
  'emergency_items[].description',
  'emergency_items[].media_resource',
  'emergency_items[].media_resource.name',
  'emergency_items[].media_resource.file',
  'emergency_items[].media_resource.content_type',
  'emergency_items[].media_resource.size',
  'emergency_contacts',
  'emergency_contacts[]',
  'emergency_contacts[].name',
  'emergency_contacts[].relation',
  'emergency_contacts[].phone_number',
  'emergency_contacts[].alt_phone_number',
  'emergency_contacts[].email',
]);

/** The paths of every field and list element in `value`. */
function fieldPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((element) => [`${at}[]`, ...fieldPaths(element, `${at}[]`)]);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, member]) => {
    const path = at === '' ? key : `${at}.${key}`;
    return [path, ...fieldPaths(member, path)];
  });
}

function notAllowed(body: unknown): string[] {
  return [...new Set(fieldPaths(body))].filter((path) => !ALLOWED.has(path));
}

describe('what an emergency link shows', () => {
  let server: TestServer;
  let owner: Owner;
  /** Text the account holds outside its emergency items and contacts. */
  const secrets = [
    'Lovelace', // the account's last name
    'quote-secret',
    'profile-secret',
    'topic-secret',
    'entry-secret',
    'image-item-secret',
    'gallery-only-secret',
    'private-profile-secret',
  ];
  let galleryOnlyKey: string;

  before(async () => {
    server = await startTestServer();
    owner = await createOwner(server, { firstName: 'Olive' });
    const accessor = await createOwner(server);
    await share(server, owner, accessor);
    await server.request('PATCH', `/app/users/${owner.appUserId}/`, { token: owner.token, body: { quote: 'quote-secret' } });
    await server.request('POST', '/account/emails/', { token: owner.token, body: { email: 'second-address@example.com' } });
    const forEmergency = await upload(server, owner.token, owner.appUserId, { name: 'Inhaler', file: png(), type: 'image/png' });
    const galleryOnly = await upload(server, owner.token, owner.appUserId, {
      name: 'gallery-only-secret',
      file: png(1),
      type: 'image/png',
    });
    galleryOnlyKey = new URL(galleryOnly.body.file).pathname.split('/').pop()!;
    const profile = await createProfile(server, owner, { name: 'profile-secret' });
    const topic = await createTopic(server, owner, profile.id, { name: 'topic-secret' });
    await createListItem(server, owner, topic.id, ['entry-secret']);
    await createImageItem(server, owner, topic.id, { description: 'image-item-secret', media_resource: galleryOnly.body.id });
    await createProfile(server, owner, { name: 'private-profile-secret', is_private: true });
    const items = `/app/users/${owner.appUserId}/emergency-items/`;
    await create(server, owner.token, items, { name: 'Asthma', description: 'Inhaler in the bag', media_resource: forEmergency.body.id });
    await create(server, owner.token, items, { name: 'Blood type', description: 'A+' });
    await create(server, owner.token, `/app/users/${owner.appUserId}/emergency-contacts/`, {
      name: 'Grace',
      relation: 'sister',
      phone_number: '15551234567',
      alt_phone_number: '15557654321',
      email: 'grace@example.com',
    });
  });
  after(() => server?.close());

  test('every field of the public body is on the list, with and without a PIN', async () => {
    const open = await createLink(server, owner, { label: 'label-secret' });
    const pinned = await createLink(server, owner, { label: 'label-secret', pin: '2468' });
    const bodies = [(await readPublic(server, open.token)).body, (await unlock(server, pinned.token, '2468')).body];
    for (const body of bodies) {
      assert.deepEqual(notAllowed(body), []);
      // Every allowed field is there too: the list is what the body is, not a wish.
      assert.deepEqual(new Set(fieldPaths(body)), ALLOWED);
      const text = JSON.stringify(body);
      for (const secret of [...secrets, 'label-secret', owner.email, 'second-address@example.com', galleryOnlyKey]) {
        assert.ok(!text.includes(secret), `the public body holds "${secret}"`);
      }
      assert.doesNotMatch(text, /\/app\//, 'no API URL');
      assert.doesNotMatch(text, /"id"/, 'no ids');
    }
  });

  test('the check fails on a field that is not on the list, at any depth', () => {
    assert.deepEqual(notAllowed({ name: 'x', email: 'a@b' }), ['email']);
    assert.deepEqual(notAllowed({ emergency_items: [{ name: 'x', url: 'u' }] }), ['emergency_items[].url']);
    assert.deepEqual(notAllowed({ emergency_items: [{ media_resource: { file: 'f', id: 1 } }] }), ['emergency_items[].media_resource.id']);
    assert.deepEqual(notAllowed({ emergency_contacts: [{ name: 'x', account: { email: 'a' } }] }), [
      'emergency_contacts[].account',
      'emergency_contacts[].account.email',
    ]);
  });
});
