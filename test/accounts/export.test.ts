// docs/accounts.md, data export: GET /account/export/ is a ZIP of account.json (every object as the
// API's own GET answers it, less its URL fields, nested under its parent) and the media files,
// byte for byte. Through the real server over HTTP, on whichever database the suite runs.
import assert from 'node:assert/strict';
import { existsSync, readlinkSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { EXPORTED } from '../../src/accounts/export/export-schemas.ts';
import { SYNCED_TYPES } from '../../src/db/synced-types.ts';
import { createOwner, insertMedia } from '../app-data/fixtures.ts';
import { createAccount } from '../helpers/accounts.ts';
import { startTestServer, stopBackgroundWork, type TestServer } from '../helpers/server.ts';
import { spoolLeftBehind } from '../helpers/spool.ts';
import { WAIT_MS } from '../helpers/wait.ts';
import { unzip, type ZipEntry } from '../helpers/zip.ts';
import { pdf, png, pngOfSize, upload, wav } from '../media/media-fixtures.ts';
import { logIn, registerVerified, startMailedServer, uniqueEmail, type MailedServer, type RegisteredAccount } from './account-flows.ts';

interface Downloaded {
  response: Response;
  entries: ZipEntry[];
  document: any;
}

async function exportOf(server: TestServer, token: string): Promise<Downloaded> {
  const response = await fetch(`${server.url}/account/export/`, { headers: { authorization: `Token ${token}` } });
  const body = Buffer.from(await response.arrayBuffer());
  assert.equal(response.status, 200, body.toString());
  const entries = await unzip(body);
  const json = entries.find((entry) => entry.name === 'account.json');
  assert.ok(json, 'account.json is in the archive');
  return { response, entries, document: JSON.parse(json.data.toString('utf8')) };
}

/** The test's own idea of "less its URL fields": url, *_url and file, at every depth. */
function stripLinks(value: any): any {
  if (Array.isArray(value)) return value.map(stripLinks);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'url' && key !== 'file' && !key.endsWith('_url'))
      .map(([key, member]) => [key, stripLinks(member)]),
  );
}

async function getJson(server: TestServer, token: string, path: string): Promise<any> {
  const response = await server.request('GET', path, { token });
  assert.equal(response.status, 200, `GET ${path}: ${response.text}`);
  return response.body;
}

async function post(server: TestServer, token: string, path: string, body: unknown): Promise<any> {
  const response = await server.request('POST', path, { token, body });
  assert.equal(response.status, 201, `POST ${path}: ${response.text}`);
  return response.body;
}

async function uploaded(server: TestServer, token: string, appUserId: number, name: string, file: Buffer): Promise<any> {
  const response = await upload(server, token, appUserId, { name, file });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

/** Storage key of a media resource, from its signed file URL. */
function storageKeyOf(media: { file: string }): string {
  return new URL(media.file).pathname.split('/').pop()!;
}

describe('data export (GET /account/export/)', () => {
  let mailed: MailedServer;
  let server: TestServer;
  let alice: RegisteredAccount;
  let aliceAppUser: number;
  /** Upload bytes by media id. */
  const bytes = new Map<number, Buffer>();
  let bob: RegisteredAccount;
  const bobSecret = 'Bob-only-d41d8cd9';

  before(async () => {
    mailed = await startMailedServer();
    server = mailed.server;

    alice = await registerVerified(mailed);
    await server.request('PUT', '/account/profile/', { token: alice.token, body: { first_name: 'Ada', last_name: 'Lovelace' } });
    await post(server, alice.token, '/account/emails/', { email: uniqueEmail('second') });
    await logIn(server, alice.email); // a second session
    aliceAppUser = (await post(server, alice.token, '/app/users/', { name: 'Ada', quote: 'Hello, world' })).id;
    const photo = png(300);
    const report = pdf();
    const voice = wav(2000);
    const photoMedia = await uploaded(server, alice.token, aliceAppUser, 'Holiday photo.png', photo);
    const reportMedia = await uploaded(server, alice.token, aliceAppUser, 'Report/2024: "final" ../..', report);
    const voiceMedia = await uploaded(server, alice.token, aliceAppUser, 'Голосовая заметка', voice);
    bytes.set(photoMedia.id, photo).set(reportMedia.id, report).set(voiceMedia.id, voice);

    const home = await post(server, alice.token, `/app/users/${aliceAppUser}/profiles/`, { name: 'Home', is_default: true });
    const work = await post(server, alice.token, `/app/users/${aliceAppUser}/profiles/`, { name: 'Work' });
    const likes = await post(server, alice.token, `/app/profiles/${home.id}/topics/`, { name: 'Likes', topic_type: 3 });
    await post(server, alice.token, `/app/profiles/${home.id}/topics/`, { name: 'Empty', topic_type: 4 });
    const projects = await post(server, alice.token, `/app/profiles/${work.id}/topics/`, { name: 'Projects', topic_type: 3 });
    await post(server, alice.token, `/app/topics/${likes.id}/items/`, {
      name: 'Food',
      list_content: { entries: [{ text: 'bread' }, { text: 'cheese' }] },
    });
    await post(server, alice.token, `/app/topics/${likes.id}/items/`, {
      name: 'Seaside',
      image_content: { description: 'Us at the sea', image_resource: photoMedia.id, media_resource: reportMedia.id },
    });
    await post(server, alice.token, `/app/topics/${projects.id}/items/`, {
      name: 'Engine',
      list_content: { entries: [{ text: 'notes' }] },
    });
    await post(server, alice.token, `/app/users/${aliceAppUser}/emergency-items/`, {
      name: 'Allergy',
      description: 'Penicillin',
      media_resource: voiceMedia.id,
    });
    await post(server, alice.token, `/app/users/${aliceAppUser}/emergency-items/`, { name: 'Blood type', description: 'O+' });
    await post(server, alice.token, `/app/users/${aliceAppUser}/emergency-contacts/`, {
      name: 'Charles',
      relation: 'friend',
      phone_number: '1234567890',
      email: 'charles@example.com',
    });

    bob = await registerVerified(mailed);
    const bobAppUser = (await post(server, bob.token, '/app/users/', { name: bobSecret })).id;
    await uploaded(server, bob.token, bobAppUser, `${bobSecret}.png`, png(1000));
    const bobProfile = await post(server, bob.token, `/app/users/${bobAppUser}/profiles/`, { name: bobSecret });
    const bobTopic = await post(server, bob.token, `/app/profiles/${bobProfile.id}/topics/`, { name: bobSecret, topic_type: 3 });
    await post(server, bob.token, `/app/topics/${bobTopic.id}/items/`, {
      name: bobSecret,
      list_content: { entries: [{ text: bobSecret }] },
    });
    await post(server, bob.token, `/app/users/${bobAppUser}/emergency-contacts/`, { name: bobSecret, phone_number: '1987654321' });
  });
  after(() => mailed.close());

  test('account.json holds the account and all it holds, each object as the API answers it (less URL fields), nested under its parent', async () => {
    const { response, document } = await exportOf(server, alice.token);
    assert.equal(response.headers.get('content-type'), 'application/zip');
    assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="profile-service-export-\d{4}-\d\d-\d\d\.zip"$/);
    assert.equal(response.headers.get('cache-control'), 'no-store');

    assert.deepEqual(Object.keys(document), [
      'format',
      'version',
      'exported_at',
      'account',
      'email_addresses',
      'sessions',
      'passkeys',
      'identities',
      'shared_with_me',
      'account_activity',
      'app_users',
    ]);
    assert.deepEqual(document.identities, []);
    // The security log, as GET /account/activity/ answers it.
    assert.deepEqual(document.account_activity, (await getJson(server, alice.token, '/account/activity/')).events);
    assert.deepEqual(document.shared_with_me, []);
    assert.equal(document.format, 'profile-service-export');
    assert.equal(document.version, 1);
    assert.equal(document.exported_at, new Date(server.clock.now()).toISOString());
    const { is_operator: _, ...aliceAccount } = await getJson(server, alice.token, '/account/profile/');
    assert.deepEqual(document.account, aliceAccount);
    assert.deepEqual(document.account, { id: alice.id, email: alice.email, first_name: 'Ada', last_name: 'Lovelace', language: 'en' });
    const emails = await getJson(server, alice.token, '/account/emails/');
    assert.equal(emails.length, 2);
    assert.deepEqual(document.email_addresses, stripLinks(emails));
    const sessions = await getJson(server, alice.token, '/auth/sessions/');
    assert.equal(sessions.length, 2);
    assert.deepEqual(document.sessions, sessions, 'the exporting session is the current one');

    assert.equal(document.app_users.length, 1);
    const [appUser] = document.app_users;
    // What the caller may do with it (is_owned_by_current_user, permissions) is not exported.
    const {
      profiles: profileList,
      is_owned_by_current_user: _owned,
      permissions: _permissions,
      ...appUserDetail
    } = await getJson(server, alice.token, `/app/users/${aliceAppUser}/`);
    assert.deepEqual(Object.keys(appUser), [
      'id',
      'name',
      'quote',
      'profiles',
      'emergency_items',
      'emergency_contacts',
      'accessors',
      'emergency_links',
      'activity',
      'media_resources',
    ]);
    assert.deepEqual(appUser.accessors, []);
    // The app user's log, as its endpoint answers it: this export is its newest event.
    assert.deepEqual(appUser.activity, (await getJson(server, alice.token, `/app/users/${aliceAppUser}/activity/`)).events);
    assert.equal(appUser.activity[0].action, 'exported');
    assert.deepEqual({ id: appUser.id, name: appUser.name, quote: appUser.quote }, stripLinks(appUserDetail));

    // Profiles in full (topics → items → contents, list entries and media), as their detail answers.
    assert.deepEqual(
      appUser.profiles.map((p: { id: number }) => p.id),
      profileList.map((p: { id: number }) => p.id),
    );
    for (const profile of appUser.profiles) {
      assert.deepEqual(profile, stripLinks(await getJson(server, alice.token, `/app/profiles/${profile.id}/`)));
    }
    const [home, work] = appUser.profiles;
    assert.deepEqual(
      home.topics.map((t: { name: string }) => t.name),
      ['Likes', 'Empty'],
    );
    assert.deepEqual(
      work.topics.map((t: { name: string }) => t.name),
      ['Projects'],
    );
    const [food, seaside] = home.topics[0].items;
    assert.deepEqual(
      food.list_content.entries.map((e: { text: string }) => e.text),
      ['bread', 'cheese'],
    );
    assert.deepEqual(Object.keys(seaside.image_content.image_resource), ['id', 'name', 'content_type', 'size']);
    for (const topic of [...home.topics, ...work.topics]) {
      assert.deepEqual(topic.items, stripLinks(await getJson(server, alice.token, `/app/topics/${topic.id}/items/`)));
    }

    assert.deepEqual(
      appUser.emergency_items,
      stripLinks(await getJson(server, alice.token, `/app/users/${aliceAppUser}/emergency-items/`)),
    );
    assert.equal(appUser.emergency_items[0].media_resource.name, 'Голосовая заметка');
    assert.deepEqual(
      appUser.emergency_contacts,
      stripLinks(await getJson(server, alice.token, `/app/users/${aliceAppUser}/emergency-contacts/`)),
    );
    const gallery = await getJson(server, alice.token, `/app/users/${aliceAppUser}/gallery/`);
    assert.deepEqual(
      appUser.media_resources.map(({ path: _path, ...media }: { path: string }) => media),
      stripLinks(gallery),
    );
    assert.doesNotMatch(JSON.stringify(document), /https?:\/\/|"url"|_url"|"file"/, 'no URL field is left');
  });

  test('every object the change log names is in account.json, where EXPORTED says its type is', async () => {
    const { document } = await exportOf(server, alice.token);
    const [appUser] = document.app_users;
    const logged = await server.server.ctx.db.kysely
      .selectFrom('changes')
      .select(['type', 'object_id'])
      .distinct()
      .where('app_user_id', '=', aliceAppUser)
      .execute();
    assert.deepEqual(new Set(logged.map((row) => row.type)), new Set(SYNCED_TYPES), 'the fixture holds every synced type');
    for (const { type, object_id } of logged) {
      const exported = EXPORTED[type](appUser).map((object) => object.id);
      assert.ok(exported.includes(object_id), `${type} ${object_id} is exported`);
    }
  });

  test('every media file is in the archive at its path, byte for byte as uploaded; stored, not deflated; account.json last', async () => {
    const { entries, document } = await exportOf(server, alice.token);
    const media = document.app_users[0].media_resources;
    assert.equal(media.length, 3);
    assert.deepEqual(
      entries.map((entry) => entry.name),
      [...media.map((m: { path: string }) => m.path), 'account.json'],
    );
    for (const resource of media) {
      assert.match(resource.path, new RegExp(`^media/${resource.id}-[^/\\\\]+\\.(png|pdf|wav)$`));
      const entry = entries.find((e) => e.name === resource.path)!;
      assert.ok(entry.data.equals(bytes.get(resource.id)!), `${resource.path} is the uploaded file`);
      assert.equal(entry.data.length, resource.size);
      assert.equal(entry.compressionMethod, 0, 'media files are stored as they are');
    }
    assert.deepEqual(
      media.map((m: { path: string }) => m.path.replace(/^media\/\d+-/, '')),
      ['Holiday photo.png', 'Report_2024_ _final.pdf', 'Голосовая заметка.wav'],
    );
    assert.equal(entries.at(-1)!.compressionMethod, 8, 'account.json is deflated');
  });

  test("another account's data never appears, and its own export holds only its own", async () => {
    const alices = await exportOf(server, alice.token);
    const text = alices.entries.find((entry) => entry.name === 'account.json')!.data.toString('utf8');
    assert.ok(!text.includes(bobSecret), "none of Bob's data in Alice's export");
    assert.ok(!text.includes(bob.email));
    assert.equal(alices.entries.length, 4);

    const bobs = await exportOf(server, bob.token);
    assert.equal(bobs.document.account.id, bob.id);
    assert.ok(!JSON.stringify(bobs.document).includes(alice.email));
    assert.deepEqual(
      bobs.document.sessions.map((s: { current: boolean }) => s.current),
      [true],
    );
    const [appUser] = bobs.document.app_users;
    assert.equal(appUser.name, bobSecret);
    assert.equal(appUser.media_resources.length, 1);
    assert.equal(appUser.profiles[0].topics[0].items[0].list_content.entries[0].text, bobSecret);
    const aliceIds = new Set(alices.document.app_users[0].media_resources.map((m: { id: number }) => m.id));
    assert.ok(!aliceIds.has(appUser.media_resources[0].id));
    assert.deepEqual(
      bobs.entries.map((e) => e.name),
      [appUser.media_resources[0].path, 'account.json'],
    );
  });

  test('an account without an app user exports its account, addresses and sessions', async () => {
    const carol = await registerVerified(mailed);
    const { entries, document } = await exportOf(server, carol.token);
    assert.deepEqual(
      entries.map((e) => e.name),
      ['account.json'],
    );
    const { is_operator: _, ...carolAccount } = await getJson(server, carol.token, '/account/profile/');
    assert.deepEqual(document.account, carolAccount);
    assert.equal(document.email_addresses.length, 1);
    assert.equal(document.sessions.length, 1);
    assert.deepEqual(document.app_users, []);
  });

  test('anonymous or with a bad token: 401; HEAD answers the headers without an archive', async () => {
    const anonymous = await server.request('GET', '/account/export/');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('www-authenticate'), 'Token');
    assert.equal(typeof anonymous.body.detail, 'string');
    assert.equal((await server.request('GET', '/account/export/', { token: 'not-a-token' })).status, 401);

    const head = await fetch(`${server.url}/account/export/`, { method: 'HEAD', headers: { authorization: `Token ${alice.token}` } });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-type'), 'application/zip');
    assert.match(head.headers.get('content-disposition') ?? '', /^attachment; filename="profile-service-export-/);
    assert.equal((await head.arrayBuffer()).byteLength, 0);
  });

  test('a media file gone from the store by its turn: no entry, its path null, everything else complete', async () => {
    const dave = await registerVerified(mailed);
    const appUserId = (await post(server, dave.token, '/app/users/', {})).id;
    const kept = png(50);
    const first = await uploaded(server, dave.token, appUserId, 'first', kept);
    const gone = await uploaded(server, dave.token, appUserId, 'gone', png(60));
    const last = await uploaded(server, dave.token, appUserId, 'last', pdf());
    // Its row stays (as when it is deleted while the export runs): only the file has left the store.
    await server.server.ctx.media.remove(storageKeyOf(gone));

    const { entries, document } = await exportOf(server, dave.token);
    const media = document.app_users[0].media_resources;
    assert.deepEqual(
      media.map((m: { id: number; path: string | null }) => [m.id, m.path === null]),
      [
        [first.id, false],
        [gone.id, true],
        [last.id, false],
      ],
    );
    assert.deepEqual(
      entries.map((e) => e.name),
      [media[0].path, media[2].path, 'account.json'],
    );
    assert.ok(entries[0]!.data.equals(kept));
    assert.ok(entries[1]!.data.equals(pdf()));
  });

  test('a client that goes away mid-download: every file the export opened is closed, and the service carries on', async () => {
    const erin = await registerVerified(mailed);
    const appUserId = (await post(server, erin.token, '/app/users/', {})).id;
    // More than the socket buffers hold, so the service is still reading files when the client stops.
    for (let i = 0; i < 4; i++) await uploaded(server, erin.token, appUserId, `big ${i}`, pngOfSize(8 * 1024 * 1024 + i));
    // The real store, watched: every stream it hands out.
    const storage = server.server.ctx.media;
    const realOpen = storage.open;
    const opened: Readable[] = [];
    storage.open = async (...args) => {
      const stream = await realOpen.apply(storage, args);
      if (stream) opened.push(stream);
      return stream;
    };
    // On local disk, the process's own file descriptors say it too.
    const mediaDir = join(server.dataDir, 'media');
    const onDisk = existsSync(mediaDir);
    const openMediaFiles = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(mediaDir);
        } catch {
          return false; // closed meanwhile
        }
      });

    try {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/account/export/`, {
        headers: { authorization: `Token ${erin.token}` },
        signal: controller.signal,
      });
      assert.equal(response.status, 200);
      assert.ok(((await response.body!.getReader().read()).value?.length ?? 0) > 0);
      await eventually(() => opened.some((stream) => !stream.destroyed), 'a media file is being read');
      if (onDisk) assert.ok(openMediaFiles().length > 0);
      controller.abort();
      await eventually(() => opened.every((stream) => stream.destroyed), 'every file the export opened is closed');
      if (onDisk) await eventually(() => openMediaFiles().length === 0, 'no file descriptor into the media directory is left');
    } finally {
      storage.open = realOpen;
    }

    assert.equal((await server.request('GET', '/health')).status, 200);
    const { entries } = await exportOf(server, erin.token);
    assert.equal(entries.length, 5, 'a whole export still works');
  });
});

/** Waits for `condition` (checked every 20 ms, for at most 10 s); fails with `what`. */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) assert.fail(`not so after 10 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('data export limit (RATE_LIMIT_EXPORTS_PER_ACCOUNT, default 5/1h)', () => {
  let mailed: MailedServer;
  before(async () => {
    mailed = await startMailedServer({ RATE_LIMITS: 'on', RATE_LIMIT_REGISTER: '100/1h', RATE_LIMIT_VERIFY_EMAIL: '100/1h' });
  });
  after(() => mailed.close());

  test('five exports an hour per account: the 6th is 429 with Retry-After until the hour is over; HEAD counts none', async () => {
    const { server } = mailed;
    const account = await registerVerified(mailed);
    const other = await registerVerified(mailed);
    const head = () => fetch(`${server.url}/account/export/`, { method: 'HEAD', headers: { authorization: `Token ${account.token}` } });

    assert.equal((await head()).status, 200);
    await exportOf(server, account.token);
    server.clock.advance(30 * 60_000);
    for (let i = 0; i < 4; i++) await exportOf(server, account.token);
    assert.equal((await head()).status, 429);

    const refused = await server.request('GET', '/account/export/', { token: account.token });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), String(30 * 60), 'when the hour opened by the first export is over');
    assert.match(refused.body.detail, /export/i);
    await exportOf(server, other.token); // another account is not affected

    server.clock.advance(30 * 60_000);
    assert.equal((await head()).status, 200);
    for (let i = 0; i < 5; i++) await exportOf(server, account.token);
    assert.equal((await server.request('GET', '/account/export/', { token: account.token })).status, 429);
  });
});

/**
 * GET /account/export/ once a slot is free: the one of the export before is given back just
 * after that response ends, which a test's next request can overtake.
 */
async function whenSlotFree(server: TestServer, token: string, signal?: AbortSignal): Promise<Response> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const response = await fetch(`${server.url}/account/export/`, { headers: { authorization: `Token ${token}` }, signal });
    if (response.status !== 503 || Date.now() > deadline) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function exportOnceFree(server: TestServer, token: string): Promise<Downloaded> {
  const response = await whenSlotFree(server, token);
  const body = Buffer.from(await response.arrayBuffer());
  assert.equal(response.status, 200, body.toString());
  const entries = await unzip(body);
  return { response, entries, document: JSON.parse(entries.find((entry) => entry.name === 'account.json')!.data.toString('utf8')) };
}

describe('data export: read in pages', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ EXPORTS_AT_ONCE: '1', RATE_LIMITS: 'on', RATE_LIMIT_EXPORTS_PER_ACCOUNT: '10/1h' });
    // No background queries: every query counted is the export's own.
    await stopBackgroundWork(server);
  });
  after(() => server.close());

  async function queriesOfExport(owner: { token: string }) {
    // The token check first (on SQLite it is then kept in memory), so only the export's own queries differ.
    assert.equal((await server.request('GET', '/account/profile/', { token: owner.token })).status, 200);
    const stats = server.server.ctx.db.stats;
    const before = stats.queries;
    const { document, entries } = await exportOnceFree(server, owner.token);
    return { count: stats.queries - before, document, entries };
  }

  test('queries grow with profiles, topics and pages of items, never with items within a page or their entries', async () => {
    const owner = await createOwner(server);
    const topics: number[] = [];
    for (let p = 0; p < 2; p++) {
      const profile = await post(server, owner.token, `/app/users/${owner.appUserId}/profiles/`, { name: `P${p}` });
      for (let t = 0; t < 2; t++) {
        topics.push((await post(server, owner.token, `/app/profiles/${profile.id}/topics/`, { name: `T${t}`, topic_type: 3 })).id);
      }
    }
    const addItems = async () => {
      for (const topic of topics) {
        await post(server, owner.token, `/app/topics/${topic}/items/`, {
          name: 'List',
          list_content: { entries: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] },
        });
        await post(server, owner.token, `/app/topics/${topic}/items/`, {
          name: 'Picture',
          image_content: { image_resource: await insertMedia(server, owner) },
        });
      }
    };
    await addItems();
    const fewer = await queriesOfExport(owner);
    await addItems();
    await addItems();
    const more = await queriesOfExport(owner);
    assert.equal(more.document.app_users[0].profiles.length, 2);
    assert.equal(more.document.app_users[0].profiles[0].topics[0].items.length, 6);
    assert.equal(more.document.app_users[0].media_resources.length, 12);
    assert.equal(more.count, fewer.count);
  });

  test('a topic of many pages: every item once, in order; account.json is JSON.stringify(…, null, 2) to the byte', async () => {
    const owner = await createOwner(server);
    const profile = await post(server, owner.token, `/app/users/${owner.appUserId}/profiles/`, { name: 'P' });
    const topic = await post(server, owner.token, `/app/profiles/${profile.id}/topics/`, { name: 'Big', topic_type: 3 });
    await post(server, owner.token, `/app/profiles/${profile.id}/topics/`, { name: 'Empty', topic_type: 4 });
    const created: number[] = [];
    for (let i = 0; i < 60; i++) {
      const body =
        i % 3
          ? { name: `I${i}`, image_content: { description: `d${i}` } }
          : { name: `L${i}`, list_content: { entries: [{ text: `e${i}` }] } };
      created.push((await post(server, owner.token, `/app/topics/${topic.id}/items/`, body)).id);
    }
    const { document, entries } = await queriesOfExport(owner);
    const [big, empty] = document.app_users[0].profiles[0].topics;
    assert.deepEqual(
      big.items.map((item: { id: number }) => item.id),
      created,
    );
    assert.deepEqual(empty.items, []);
    const fromApi = await server.request('GET', `/app/topics/${topic.id}/`, { token: owner.token });
    assert.deepEqual(big, stripLinks(fromApi.body));
    const text = entries.find((entry) => entry.name === 'account.json')!.data.toString('utf8');
    assert.equal(text, `${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  });

  test('an account without an app user: an empty app_users, still well-formed', async () => {
    const account = await createAccount(server);
    const { document, entries } = await queriesOfExport(account);
    assert.deepEqual(document.app_users, []);
    const text = entries.find((entry) => entry.name === 'account.json')!.data.toString('utf8');
    assert.equal(text, `${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  });

  test('beyond EXPORTS_AT_ONCE running at once: 503 with Retry-After, not counted; the slot is free again once the archive is sent', async () => {
    const owner = await createOwner(server);
    // An export whose response is not read holds its slot while its archive waits for the client:
    // 30 MB of media, more than the sockets' buffers take.
    for (let i = 0; i < 3; i++) {
      assert.equal((await upload(server, owner.token, owner.appUserId, { name: `big ${i}`, file: pngOfSize(10_000_000) })).status, 201);
    }
    const running = await whenSlotFree(server, owner.token);
    assert.equal(running.status, 200);
    const refused = await server.request('GET', '/account/export/', { token: owner.token });
    assert.equal(refused.status, 503, refused.text);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match(refused.body.detail, /exports/);
    await running.arrayBuffer();
    // The first export counted, the refused one did not.
    const used = 1;
    for (let i = used; i < 10; i++) await exportOnceFree(server, owner.token);
    assert.equal((await whenSlotFree(server, owner.token)).status, 429);
    // Used up, the account hears 429 even while another export holds the slot.
    const other = await createOwner(server);
    const holding = await whenSlotFree(server, other.token);
    assert.equal((await server.request('GET', '/account/export/', { token: owner.token })).status, 429);
    await holding.arrayBuffer();
  });

  test('no spool file is left behind, by a finished export or by one whose client went away', async () => {
    const owner = await createOwner(server);
    await exportOnceFree(server, owner.token);
    const abandoned = new AbortController();
    const response = await whenSlotFree(server, owner.token, abandoned.signal);
    assert.equal(response.status, 200);
    abandoned.abort();
    await exportOnceFree(server, owner.token);
    assert.deepEqual(await spoolLeftBehind(server), []);
  });
});
