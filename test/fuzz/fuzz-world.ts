// The objects the fuzzer points at: two verified, logged-in accounts (the caller and a
// stranger), each with a whole tree of personal data, uploaded media, an invitation to its data
// (an accessor), an emergency link (and its token) and secondary e-mail addresses. Random requests may delete or replace any of the caller's objects, or revoke
// its token: `repair` puts back whatever is gone, `renewToken` logs in again.
import assert from 'node:assert/strict';
import { issueToken } from '../../src/auth/token-queries.ts';
import { createAccount } from '../helpers/accounts.ts';
import type { TestServer } from '../helpers/server.ts';
import { png, upload } from '../media/media-fixtures.ts';
import { JPEG } from './multipart-arbitraries.ts';

export type IdKind =
  | 'appUser'
  | 'profile'
  | 'topic'
  | 'item'
  | 'listEntry'
  | 'emergencyItem'
  | 'emergencyContact'
  | 'accessor'
  | 'emergencyLink'
  | 'linkToken'
  | 'media'
  | 'email'
  | 'session'
  | 'passkey'
  | 'identity'
  | 'providerName'
  | 'file'
  | 'account'
  | 'outboxMessage'
  | 'webhook'
  | 'webhookDelivery';

/** The path segment before an `{id}` names the kind of object the id is. */
export const KIND_OF_SEGMENT: Record<string, IdKind> = {
  users: 'appUser',
  profiles: 'profile',
  topics: 'topic',
  items: 'item',
  'list-entries': 'listEntry',
  'emergency-items': 'emergencyItem',
  'emergency-contacts': 'emergencyContact',
  accessors: 'accessor',
  'emergency-links': 'emergencyLink',
  // /public/emergency/{token}/
  emergency: 'linkToken',
  'media-resources': 'media',
  emails: 'email',
  sessions: 'session',
  passkeys: 'passkey',
  identities: 'identity',
  // /auth/oidc/{name}/…: a provider name (none is configured here, so every one is unknown: 404).
  oidc: 'providerName',
  files: 'file',
  // The operators' routes (/admin/…): the fuzzer's parties are no operators, so whatever the id
  // these answer 404 (fuzz-runner.ts checks it).
  accounts: 'account',
  outbox: 'outboxMessage',
  webhooks: 'webhook',
  deliveries: 'webhookDelivery',
};

export interface Party {
  label: 'caller' | 'stranger';
  accountId: number;
  email: string;
  password: string;
  token: string;
  /** Ids of each kind; for 'file', signed file paths (storage key and query); for 'linkToken', emergency link tokens; for 'providerName', provider names. */
  ids: Record<Exclude<IdKind, 'file' | 'linkToken' | 'providerName'>, number[]> & {
    file: string[];
    linkToken: string[];
    providerName: string[];
  };
}

export class FuzzWorld {
  /** Fixture requests (setup and repairs), counted apart from the fuzz requests. */
  fixtureRequests = 0;

  readonly server: TestServer;
  readonly caller: Party;
  readonly stranger: Party;
  /** A token of the caller's that was logged out. */
  readonly revokedToken: string;

  private constructor(server: TestServer, caller: Party, stranger: Party, revokedToken: string) {
    this.server = server;
    this.caller = caller;
    this.stranger = stranger;
    this.revokedToken = revokedToken;
  }

  static async create(server: TestServer): Promise<FuzzWorld> {
    const caller = await newParty(server, 'caller');
    const stranger = await newParty(server, 'stranger');
    const world = new FuzzWorld(
      server,
      caller,
      stranger,
      await issueToken(server.server.ctx.db.kysely, caller.accountId, server.clock.now(), 'password'),
    );
    const logout = await world.call('POST', '/auth/logout/', world.revokedToken);
    assert.equal(logout.status, 204, logout.text);
    await world.repair(caller);
    await world.repair(stranger);
    return world;
  }

  /** A new account in place of the party's deleted one (DELETE /account/ with the right password). */
  async replaceAccount(party: Party): Promise<void> {
    Object.assign(party, await newParty(this.server, party.label));
    await this.repair(party);
  }

  /** A fresh token for the party (after a logout, logout-all or password change). */
  async renewToken(party: Party): Promise<void> {
    party.token = await issueToken(this.server.server.ctx.db.kysely, party.accountId, this.server.clock.now(), 'password');
  }

  /** Puts back every fixture of the party that is gone, and re-reads the ids that changed. */
  async repair(party: Party): Promise<void> {
    const ids = party.ids;
    const exists = async (path: string) => (await this.call('GET', path, party.token)).status === 200;
    const post = async (path: string, body: unknown) => {
      const response = await this.call('POST', path, party.token, body);
      assert.equal(response.status, 201, `fixture POST ${path}: ${response.status} ${response.text}`);
      return response.body;
    };

    const users = await this.call('GET', '/app/users/', party.token);
    ids.appUser = users.body.length > 0 ? [users.body[0].id] : [(await post('/app/users/', { quote: 'Fuzzing \u202e é 😀' })).id];
    const appUser = ids.appUser[0]!;

    const gallery = (await this.call('GET', `/app/users/${appUser}/gallery/`, party.token)).body as Array<{ id: number; file: string }>;
    if (gallery.length < 2) {
      for (const [name, file] of [
        ['dot.png', png()],
        ['dot.jpg', JPEG],
      ] as const) {
        const response = await upload(this.server, party.token, appUser, { name, file, filename: name });
        this.fixtureRequests++;
        assert.equal(response.status, 201, `fixture upload: ${response.status} ${response.text}`);
        gallery.push(response.body);
      }
    }
    ids.media = gallery.slice(0, 2).map((media) => media.id);
    ids.file = gallery
      .slice(0, 2)
      .map((media) => new URL(media.file).pathname.replace(/^\/media\/files\//, '') + new URL(media.file).search);
    const [media, otherMedia] = ids.media as [number, number];

    if (!(ids.profile[0] && (await exists(`/app/profiles/${ids.profile[0]}/`)))) {
      ids.profile = [(await post(`/app/users/${appUser}/profiles/`, { name: 'Home', is_default: true })).id];
      ids.topic = [];
    }
    if (!(ids.topic[0] && (await exists(`/app/topics/${ids.topic[0]}/`)))) {
      ids.topic = [(await post(`/app/profiles/${ids.profile[0]}/topics/`, { name: 'Likes', topic_type: 3 })).id];
      ids.item = [];
    }
    const topic = ids.topic[0]!;
    const [listItem, imageItem] = ids.item;
    const keptList = listItem !== undefined && (await exists(`/app/items/${listItem}/`));
    const keptImage = imageItem !== undefined && (await exists(`/app/items/${imageItem}/`));
    ids.item = [
      keptList
        ? listItem!
        : (await post(`/app/topics/${topic}/items/`, { name: 'List', list_content: { entries: [{ text: 'one' }, { text: 'two 😀' }] } }))
            .id,
      keptImage
        ? imageItem!
        : (
            await post(`/app/topics/${topic}/items/`, {
              name: 'Picture',
              image_content: { description: 'A dot', image_resource: media, media_resource: otherMedia },
            })
          ).id,
    ];
    let entries = (await this.call('GET', `/app/items/${ids.item[0]}/list-entries/`, party.token)).body as Array<{ id: number }>;
    if (!Array.isArray(entries) || entries.length === 0)
      entries = [await post(`/app/items/${ids.item[0]}/list-entries/`, { text: 'three' })];
    ids.listEntry = entries.slice(0, 2).map((entry) => entry.id);

    if (!(ids.emergencyItem[0] && (await exists(`/app/emergency-items/${ids.emergencyItem[0]}/`)))) {
      ids.emergencyItem = [
        (await post(`/app/users/${appUser}/emergency-items/`, { name: 'Allergy', description: 'Penicillin', media_resource: media })).id,
      ];
    }
    if (!(ids.emergencyContact[0] && (await exists(`/app/emergency-contacts/${ids.emergencyContact[0]}/`)))) {
      ids.emergencyContact = [
        (
          await post(`/app/users/${appUser}/emergency-contacts/`, {
            name: 'Grace',
            relation: 'sister',
            phone_number: '15551234567',
            alt_phone_number: '',
            email: 'grace@example.com',
          })
        ).id,
      ];
    }

    // An invitation of the party's own, to an address no party holds.
    const accessors = (await this.call('GET', `/app/users/${appUser}/accessors/`, party.token)).body as Array<{ id: number }>;
    ids.accessor =
      accessors.length > 0
        ? [accessors[0]!.id]
        : [(await post(`/app/users/${appUser}/accessors/`, { email: `friend-of-${party.label}-${Date.now()}@example.com` })).id];
    // The token is shown only when a link is made: a link that is gone is made again, with it.
    if (!(ids.emergencyLink[0] && (await exists(`/app/emergency-links/${ids.emergencyLink[0]}/`)))) {
      const link = await post(`/app/users/${appUser}/emergency-links/`, { label: 'Card' });
      ids.emergencyLink = [link.id];
      ids.linkToken = [new URL(link.link).pathname.split('/').pop()!];
    }

    let emails = (await this.call('GET', '/account/emails/', party.token)).body as Array<{ id: number; primary: boolean }>;
    if (emails.length < 2) {
      await post('/account/emails/', { email: `${party.label}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com` });
      emails = (await this.call('GET', '/account/emails/', party.token)).body;
    }
    ids.email = emails.map((address) => address.id);

    // Two sessions at least: the current one and another (a DELETE may end either).
    let sessions = (await this.call('GET', '/auth/sessions/', party.token)).body as Array<{ id: number }>;
    if (sessions.length < 2) {
      await issueToken(this.server.server.ctx.db.kysely, party.accountId, this.server.clock.now(), 'password');
      sessions = (await this.call('GET', '/auth/sessions/', party.token)).body;
    }
    ids.session = sessions.map((session) => session.id);

    // A passkey (written straight in: its key is never used here), again when one was deleted.
    const passkeys = (await this.call('GET', '/account/passkeys/', party.token)).body as Array<{ id: number }>;
    ids.passkey =
      passkeys.length > 0
        ? passkeys.map((passkey) => passkey.id)
        : [
            (
              await this.server.server.ctx.db.kysely
                .insertInto('passkeys')
                .values({
                  account_id: party.accountId,
                  credential_id: `fuzz-${party.label}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
                  public_key: 'AA',
                  counter: 0,
                  transports: '',
                  backed_up: 0,
                  name: 'Fuzz key',
                  created_at: this.server.clock.now(),
                  last_used_at: null,
                })
                .returning('id')
                .executeTakeFirstOrThrow()
            ).id,
          ];

    // An identity at another provider (written straight in), again when one was unlinked.
    const identities = (await this.call('GET', '/account/identities/', party.token)).body as Array<{ id: number }>;
    ids.identity =
      identities.length > 0
        ? identities.map((identity) => identity.id)
        : [
            (
              await this.server.server.ctx.db.kysely
                .insertInto('identities')
                .values({
                  account_id: party.accountId,
                  provider: 'fuzz',
                  issuer: 'https://issuer.fuzz.example',
                  subject: `fuzz-${party.label}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
                  email: party.email,
                  refresh_token: null,
                  client_id: null,
                  mail_disabled: 0,
                  created_at: this.server.clock.now(),
                  last_used_at: null,
                })
                .returning('id')
                .executeTakeFirstOrThrow()
            ).id,
          ];
  }

  private async call(method: string, path: string, token: string, body?: unknown) {
    this.fixtureRequests++;
    return this.server.request(method, path, { token, body });
  }
}

async function newParty(server: TestServer, label: Party['label']): Promise<Party> {
  const account = await createAccount(server, { firstName: label === 'caller' ? 'Ada' : 'Stranger' });
  return {
    label,
    accountId: account.id,
    email: account.email,
    password: account.password,
    token: account.token,
    ids: {
      appUser: [],
      profile: [],
      topic: [],
      item: [],
      listEntry: [],
      emergencyItem: [],
      emergencyContact: [],
      accessor: [],
      emergencyLink: [],
      linkToken: [],
      media: [],
      email: [],
      session: [],
      passkey: [],
      identity: [],
      providerName: ['google'],
      file: [],
      account: [account.id],
      outboxMessage: [1],
      webhook: [1],
      webhookDelivery: [1],
    },
  };
}
