// Fixtures for the personal-data tests: app users and trees made through the API, media rows
// written straight into the database (the gallery upload is tested with the media capability).
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import { mediaOf } from '../helpers/factories.ts';

export interface Owner extends TestAccount {
  appUserId: number;
}

/** A verified account with its app user. */
export async function createOwner(server: TestServer, options: { firstName?: string } = {}): Promise<Owner> {
  const account = await createAccount(server, options);
  const response = await server.request('POST', '/app/users/', { token: account.token, body: {} });
  assert.equal(response.status, 201, response.text);
  return { ...account, appUserId: response.body.id };
}

/** A media resource row of the owner's app user, as the gallery would store it. */
export async function insertMedia(server: TestServer, owner: Owner, name = 'photo.png'): Promise<number> {
  return mediaOf(server.server.ctx.db.kysely, owner.id, owner.appUserId, { name, now: server.clock.now() });
}

/** POST that must succeed with 201; returns the body. */
export async function create(server: TestServer, token: string, path: string, body: unknown): Promise<any> {
  const response = await server.request('POST', path, { token, body });
  assert.equal(response.status, 201, `POST ${path}: ${response.status} ${response.text}`);
  return response.body;
}

export async function createProfile(server: TestServer, owner: Owner, body: object = {}): Promise<any> {
  return create(server, owner.token, `/app/users/${owner.appUserId}/profiles/`, { name: 'Home', ...body });
}

export async function createTopic(server: TestServer, owner: Owner, profileId: number, body: object = {}): Promise<any> {
  return create(server, owner.token, `/app/profiles/${profileId}/topics/`, { name: 'Likes', topic_type: 3, ...body });
}

export async function createListItem(server: TestServer, owner: Owner, topicId: number, texts: string[] = ['one', 'two']): Promise<any> {
  return create(server, owner.token, `/app/topics/${topicId}/items/`, {
    name: 'List',
    list_content: { entries: texts.map((text) => ({ text })) },
  });
}

export async function createImageItem(server: TestServer, owner: Owner, topicId: number, image: object = {}): Promise<any> {
  return create(server, owner.token, `/app/topics/${topicId}/items/`, {
    name: 'Picture',
    image_content: { description: 'A picture', ...image },
  });
}

/** The path part of a URL the service wrote (PUBLIC_URL based). */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}
