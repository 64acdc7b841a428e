// The request each workload sends, one per bench account (connections take them in turn).
import type { BenchAccount } from './fixtures.ts';
import type { LoadRequest } from './load-types.ts';

const auth = (account: BenchAccount) => ({ authorization: `Token ${account.token}` });
const json = { 'content-type': 'application/json' };

/** The owners' accounts with the tokens of the accounts they share with, owner i's with `accessors[i]`: the same requests, made by accessors (W7, W9). */
export function byAccessors(owners: BenchAccount[], accessors: BenchAccount[]): BenchAccount[] {
  return owners.map((owner, i) => ({ ...owner, token: accessors[i]!.token }));
}

/** W1: the profile detail (5 topics × 10 items, ~19 KB). */
export function profileReads(accounts: BenchAccount[]): LoadRequest[] {
  return accounts.map((a) => ({ method: 'GET', path: `/app/profiles/${a.profileId}/`, headers: auth(a) }));
}

/** W2: the items of the profile's first topic. */
export function topicItemReads(accounts: BenchAccount[]): LoadRequest[] {
  return accounts.map((a) => ({ method: 'GET', path: `/app/topics/${a.topicId}/items/`, headers: auth(a) }));
}

/** W3: a new item with list content of 3 entries, under the account's first topic. */
export function itemCreates(accounts: BenchAccount[]): LoadRequest[] {
  const body = JSON.stringify({
    name: 'Shopping list',
    list_content: { entries: [{ text: 'Oat milk, two litres' }, { text: 'Rye bread, sliced' }, { text: 'Batteries, AA size' }] },
  });
  return accounts.map((a) => ({ method: 'POST', path: `/app/topics/${a.topicId}/items/`, headers: { ...auth(a), ...json }, body }));
}

/** W4: a login with the right password. */
export function logins(accounts: BenchAccount[], password: string): LoadRequest[] {
  return accounts.map((a) => ({
    method: 'POST',
    path: '/auth/login/',
    headers: json,
    body: JSON.stringify({ username: a.email, password }),
  }));
}
