// Data factories for fixtures that skip the HTTP flows (registration, verification, uploads)
// where a test is not about them. They write through the project's own insert queries, so a
// change to a table's columns is made in one place and the fixtures follow.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { insertAccount } from '../../src/accounts/core/account-queries.ts';
import { insertAddress, markAddressVerified } from '../../src/accounts/emails/email-address-queries.ts';
import { insertAppUser } from '../../src/app-data/app-user-queries.ts';
import { insertMedia } from '../../src/app-data/gallery-queries.ts';
import { insertProfile } from '../../src/app-data/profile-queries.ts';
import { insertTopic } from '../../src/app-data/topic-queries.ts';
import { issueToken } from '../../src/auth/token-queries.ts';
import type { Database } from '../../src/db/schema.ts';

type Db = Kysely<Database>;

/** An account with one verified primary address, and a token for it. */
export async function verifiedAccount(
  db: Db,
  values: { email?: string; firstName?: string; lastName?: string; passwordHash: string; now: number },
): Promise<{ id: number; email: string; token: string }> {
  const email = values.email ?? `user-${randomBytes(6).toString('hex')}@example.com`;
  const id = await insertAccount(db, {
    firstName: values.firstName ?? 'Ada',
    lastName: values.lastName ?? 'Lovelace',
    passwordHash: values.passwordHash,
    now: values.now,
  });
  const address = await insertAddress(db, { accountId: id, email, primary: true, verifiedAction: 1, now: values.now });
  await markAddressVerified(db, address.id);
  return { id, email, token: await issueToken(db, id, values.now, 'password') };
}

export async function appUserOf(db: Db, accountId: number, values: { name?: string; now: number }): Promise<number> {
  return (await insertAppUser(db, { accountId, name: values.name ?? 'Me', quote: null, now: values.now })).id;
}

/** A default profile with one text topic, under the app user: the parents an item needs. */
export async function topicOf(db: Db, accountId: number, appUserId: number): Promise<{ profileId: number; topicId: number }> {
  const profile = await insertProfile(db, { accountId, appUserId, name: 'Home', isDefault: true });
  const topic = await insertTopic(db, { accountId, profileId: profile.id, name: 'Lists', topicType: 3 });
  return { profileId: profile.id, topicId: topic.id };
}

/** A media row as the gallery would store it (no file behind it). */
export async function mediaOf(db: Db, accountId: number, appUserId: number, values: { name?: string; now: number }): Promise<number> {
  const row = await insertMedia(db, {
    accountId,
    appUserId,
    name: values.name ?? 'photo.png',
    storageKey: `${randomBytes(16).toString('hex')}.png`,
    contentType: 'image/png',
    size: 1234,
    now: values.now,
  });
  return row.id;
}
