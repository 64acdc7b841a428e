// The property of docs/offline-and-live.md, over random histories: for any cursor c a client was given, a
// full read taken at c with the changes since c applied equals a full read taken now, for the
// owner and for accessors with and without private access, whatever writes, deletes and
// privacy changes came in between. A cursor taken before the caller's access changed is 410.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createOwner, type Owner } from '../app-data/fixtures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertAccessor, setRights } from '../sharing/sharing-fixtures.ts';
import { applyChanges, changesSince, currentCursor, fullRead, type Flat } from './sync-fixtures.ts';

type Step =
  | { op: 'profile'; private: boolean }
  | { op: 'privacy'; pick: number }
  | { op: 'renameProfile'; pick: number }
  | { op: 'deleteProfile'; pick: number }
  | { op: 'topic'; pick: number }
  | { op: 'deleteTopic'; pick: number }
  | { op: 'item'; pick: number; entries: number }
  | { op: 'entry'; pick: number }
  | { op: 'editEntry'; pick: number }
  | { op: 'deleteEntry'; pick: number }
  | { op: 'deleteItem'; pick: number }
  | { op: 'contact' }
  | { op: 'access'; privateAccess: boolean }
  | { op: 'snapshot' };

const pick = fc.nat(1000);
const often = <T>(arbitrary: fc.Arbitrary<T>) => ({ arbitrary, weight: 3 });
const step: fc.Arbitrary<Step> = fc.oneof(
  often(fc.record({ op: fc.constant('profile' as const), private: fc.boolean() })),
  often(fc.record({ op: fc.constant('privacy' as const), pick })),
  fc.record({ op: fc.constant('renameProfile' as const), pick }),
  fc.record({ op: fc.constant('deleteProfile' as const), pick }),
  often(fc.record({ op: fc.constant('topic' as const), pick })),
  fc.record({ op: fc.constant('deleteTopic' as const), pick }),
  often(fc.record({ op: fc.constant('item' as const), pick, entries: fc.nat(3) })),
  fc.record({ op: fc.constant('entry' as const), pick }),
  fc.record({ op: fc.constant('editEntry' as const), pick }),
  fc.record({ op: fc.constant('deleteEntry' as const), pick }),
  fc.record({ op: fc.constant('deleteItem' as const), pick }),
  fc.record({ op: fc.constant('contact' as const) }),
  fc.record({ op: fc.constant('access' as const), privateAccess: fc.boolean() }),
  often(fc.record({ op: fc.constant('snapshot' as const) })),
);

interface Snapshot {
  viewer: Owner;
  flat: Flat;
  cursor: string;
  accessEpoch: number;
}

describe('the change log, over random histories', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('a full read at c plus the changes since c is a full read now', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const owner = await createOwner(server);
        const reader = await createOwner(server);
        const accessorId = await insertAccessor(server, owner, reader.email, reader.id, { canWrite: false, privateAccess: false });
        const viewers = [owner, reader];
        let accessEpoch = 0;
        const snapshots: Snapshot[] = [];
        const snapshot = async () => {
          for (const viewer of viewers) {
            const cursor = await currentCursor(server, viewer.token, owner.appUserId);
            snapshots.push({ viewer, flat: await fullRead(server, viewer.token, owner.appUserId), cursor, accessEpoch });
          }
        };
        await snapshot();

        const ids = {
          profiles: [] as number[],
          topics: [] as number[],
          items: [] as number[],
          entries: [] as number[],
          lists: [] as number[],
        };
        const of = (list: number[], n: number) => (list.length === 0 ? undefined : list[n % list.length]);
        const call = async (method: string, path: string, body?: unknown) => {
          const response = await server.request(method, path, { token: owner.token, body });
          // What a step names may have gone with its parent: 404 is a step that did nothing.
          assert.ok([200, 201, 204, 404].includes(response.status), `${method} ${path}: ${response.status} ${response.text}`);
          return response;
        };
        for (const [index, s] of steps.entries()) {
          // A client also reads at regular points, whatever the steps say.
          if (index % 5 === 4) await snapshot();
          switch (s.op) {
            case 'profile': {
              const r = await call('POST', `/app/users/${owner.appUserId}/profiles/`, { name: 'P', is_private: s.private });
              ids.profiles.push(r.body.id);
              break;
            }
            case 'privacy':
            case 'renameProfile': {
              const id = of(ids.profiles, s.pick);
              if (id === undefined) break;
              const current = await server.request('GET', `/app/profiles/${id}/`, { token: owner.token });
              if (current.status !== 200) break;
              await call(
                'PATCH',
                `/app/profiles/${id}/`,
                s.op === 'privacy' ? { is_private: !current.body.is_private } : { name: `P${s.pick}` },
              );
              break;
            }
            case 'deleteProfile':
            case 'deleteTopic':
            case 'deleteItem':
            case 'deleteEntry': {
              const [list, path] = {
                deleteProfile: [ids.profiles, 'profiles'],
                deleteTopic: [ids.topics, 'topics'],
                deleteItem: [ids.items, 'items'],
                deleteEntry: [ids.entries, 'list-entries'],
              }[s.op] as [number[], string];
              const id = of(list, s.pick);
              if (id !== undefined) await call('DELETE', `/app/${path}/${id}/`);
              break;
            }
            case 'topic': {
              const id = of(ids.profiles, s.pick);
              if (id === undefined) break;
              const r = await call('POST', `/app/profiles/${id}/topics/`, { name: 'T', topic_type: 3 });
              if (r.status === 201) ids.topics.push(r.body.id);
              break;
            }
            case 'item': {
              const id = of(ids.topics, s.pick);
              if (id === undefined) break;
              const entries = Array.from({ length: s.entries }, (_, i) => ({ text: `e${i}` }));
              const r = await call('POST', `/app/topics/${id}/items/`, { name: 'I', list_content: { entries } });
              if (r.status !== 201) break;
              ids.items.push(r.body.id);
              ids.entries.push(...r.body.list_content.entries.map((e: { id: number }) => e.id));
              break;
            }
            case 'entry': {
              const id = of(ids.items, s.pick);
              if (id === undefined) break;
              const r = await call('POST', `/app/items/${id}/list-entries/`, { text: 'new' });
              if (r.status === 201) ids.entries.push(r.body.id);
              break;
            }
            case 'editEntry': {
              const id = of(ids.entries, s.pick);
              if (id !== undefined) await call('PATCH', `/app/list-entries/${id}/`, { text: `t${s.pick}` });
              break;
            }
            case 'contact':
              await call('POST', `/app/users/${owner.appUserId}/emergency-contacts/`, { name: 'C', phone_number: '0123456789' });
              break;
            case 'access':
              await setRights(server, accessorId, { canWrite: false, privateAccess: s.privateAccess });
              accessEpoch += 1;
              break;
            case 'snapshot':
              await snapshot();
              break;
          }
        }

        const now = new Map<Owner, Flat>();
        for (const viewer of viewers) now.set(viewer, await fullRead(server, viewer.token, owner.appUserId));
        for (const taken of snapshots) {
          const path = `/app/users/${owner.appUserId}/changes/?since=${encodeURIComponent(taken.cursor)}`;
          const first = await server.request('GET', path, { token: taken.viewer.token });
          if (taken.viewer === reader && taken.accessEpoch !== accessEpoch) {
            // Rights set again to the same value read the same: only a different view is 410.
            if (first.status === 410) continue;
          }
          assert.equal(first.status, 200, first.text);
          const { changes } = await changesSince(server, taken.viewer.token, owner.appUserId, taken.cursor);
          assert.deepEqual(applyChanges(taken.flat, changes), now.get(taken.viewer));
        }
      }),
      { numRuns: 25 },
    );
  });
});
