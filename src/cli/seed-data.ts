// What one seeded account holds: a verified primary address, one app user, one default
// profile of 5 topics × 10 items; items alternate list content (3 entries of ~20
// characters) and image content (a ~100-character description, no media). The benchmark
// measures against exactly this shape, so change it only together with bench/README.md.
import type { Insertable } from 'kysely';
import type { Database } from '../db/schema.ts';

export const SEED_PASSWORD = 'bench-password-1';
export const TOPICS_PER_PROFILE = 5;
export const ITEMS_PER_TOPIC = 10;
export const ENTRIES_PER_LIST = 3;

/** The tables the seeder writes, in foreign-key order. */
export const SEEDED_TABLES = [
  'accounts',
  'email_addresses',
  'app_users',
  'profiles',
  'topics',
  'items',
  'list_contents',
  'list_entries',
  'image_contents',
] as const;

export type SeededTable = (typeof SEEDED_TABLES)[number];

export type SeedRows = { [T in SeededTable]: Insertable<Database[T]>[] };

/** The next free id of each seeded table; advanced as rows are built. */
export type IdCursor = Record<SeededTable, number>;

export function seedEmail(n: number): string {
  return `bench-${n}@example.com`;
}

/** The bench-<n>@example.com addresses match this LIKE pattern (lower case). */
export const SEED_EMAIL_PATTERN = 'bench-%@example.com';

const TOPICS: ReadonlyArray<{ name: string; topicType: number }> = [
  { name: 'Health', topicType: 3 },
  { name: 'Family and friends', topicType: 4 },
  { name: 'Home', topicType: 3 },
  { name: 'Travel', topicType: 4 },
  { name: 'Documents', topicType: 3 },
];

const ENTRIES = ['Take the blue tablets', 'Call the pharmacist', 'Water the tomatoes'];

const DESCRIPTION = 'A photograph of the front door with the spare key hidden under the third flower pot on the left.';

export function emptySeedRows(): SeedRows {
  return {
    accounts: [],
    email_addresses: [],
    app_users: [],
    profiles: [],
    topics: [],
    items: [],
    list_contents: [],
    list_entries: [],
    image_contents: [],
  };
}

/** Appends the rows of seeded account number `n` to `rows`, taking ids from `ids`. */
export function addSeedAccount(rows: SeedRows, ids: IdCursor, n: number, passwordHash: string, now: number): void {
  const accountId = ids.accounts++;
  const email = seedEmail(n);
  rows.accounts.push({ id: accountId, first_name: 'Bench', last_name: `User ${n}`, password_hash: passwordHash, created_at: now });
  rows.email_addresses.push({
    id: ids.email_addresses++,
    account_id: accountId,
    email,
    email_lower: email,
    verified: 1,
    is_primary: 1,
    verified_action: 1,
    created_at: now,
    last_key_sent_at: null,
  });
  const appUserId = ids.app_users++;
  // The totals a create counts in its bump (migration 0013), here written with the rows.
  const lists = TOPICS.length * Math.ceil(ITEMS_PER_TOPIC / 2);
  rows.app_users.push({
    id: appUserId,
    account_id: accountId,
    name: 'Bench',
    quote: 'Seeded for benchmarks and demos.',
    created_at: now,
    item_count: TOPICS.length * ITEMS_PER_TOPIC,
    entry_count: lists * ENTRIES_PER_LIST,
  });
  const profileId = ids.profiles++;
  rows.profiles.push({ id: profileId, account_id: accountId, app_user_id: appUserId, name: 'Everyday', is_default: 1 });

  for (const [t, topic] of TOPICS.entries()) {
    const topicId = ids.topics++;
    rows.topics.push({ id: topicId, account_id: accountId, profile_id: profileId, name: topic.name, topic_type: topic.topicType });
    for (let i = 0; i < ITEMS_PER_TOPIC; i++) {
      const itemId = ids.items++;
      const number = t * ITEMS_PER_TOPIC + i + 1;
      rows.items.push({ id: itemId, account_id: accountId, topic_id: topicId, name: `${topic.name} item ${number}` });
      if (i % 2 === 0) {
        const listId = ids.list_contents++;
        rows.list_contents.push({ id: listId, account_id: accountId, item_id: itemId });
        for (let e = 0; e < ENTRIES_PER_LIST; e++) {
          rows.list_entries.push({
            id: ids.list_entries++,
            account_id: accountId,
            list_content_id: listId,
            text: ENTRIES[e % ENTRIES.length]!,
          });
        }
      } else {
        rows.image_contents.push({
          id: ids.image_contents++,
          account_id: accountId,
          item_id: itemId,
          description: DESCRIPTION,
          image_resource_id: null,
          media_resource_id: null,
        });
      }
    }
  }
}
