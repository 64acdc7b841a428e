// List item creates where the database has the write functions (PostgreSQL; elsewhere they go
// through the write kernel's writeUnderTopic, owned-write.ts): those that arrive in one
// turn of the event loop go to the database as one call of create_list_items (migration 0012),
// one round trip and one durable commit for them all, as the token lookups of one turn are one
// query (auth/token-finder.ts). Each create makes the same checks in the same order as the
// transaction path (item-service.ts) and answers the same: 404 for a topic that is not the
// caller's, 400 over the items quota or an account-wide bound; one create's refusal does not
// touch the others.
import DataLoader from 'dataloader';
import { CompiledQuery, type Kysely } from 'kysely';
import type { RequestVia } from '../activity/activity-events.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { codeOf } from '../db/driver-errors.ts';
import { notFound } from '../errors.ts';
import type { ListEntryRow } from './list-entry-schemas.ts';
import { writeUnderTopic, type Held } from './kernel/owned-write.ts';
import { entriesBoundRefusal, itemsBoundRefusal, quotaRefusal, type Usage } from './kernel/quotas.ts';
import type { WriteTerms } from './kernel/write-terms.ts';

const CALL =
  'select o_index, o_outcome, o_item_id, o_list_content_id, o_entry_ids from create_list_items($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)';

/** Creates in one call at most: one transaction holds that many app users' locks. */
const MAX_BATCH = 64;

/**
 * A call that failed as a whole and may simply run again: a deadlock with another transaction
 * (the database chose this one to undo), or a foreign key (a parent gone; on the next run that
 * create is found missing).
 */
const RETRIED = new Set(['40P01', '23503']);
const ATTEMPTS = 3;

export interface ListItemCreate {
  accountId: number;
  topicId: number;
  name: string;
  texts: string[];
  /** An accessor's create: its account, for the owner's activity log (migration 0036); absent for the owner's own. */
  readerId?: number;
  /** How an accessor's create came, for the same log (migration 0038). */
  via?: RequestVia;
}

export interface CreatedListItem {
  itemId: number;
  listContentId: number;
  entries: ListEntryRow[];
}

interface Outcome {
  o_index: number;
  o_outcome: 'created' | 'not_found' | 'over_quota' | 'over_account_items' | 'over_account_entries';
  o_item_id: number | null;
  o_list_content_id: number | null;
  o_entry_ids: number[] | null;
}

async function runCall(ctx: AppContext, creates: readonly ListItemCreate[]): Promise<Outcome[]> {
  const { quotas } = ctx.config;
  const parameters = [
    creates.map((c) => c.accountId),
    creates.map((c) => c.topicId),
    creates.map((c) => c.name),
    creates.map((c) => c.texts.length),
    creates.flatMap((c) => c.texts),
    quotas.itemsPerTopic,
    quotas.itemsPerAccount,
    quotas.entriesPerAccount,
    creates.map((c) => c.readerId ?? null),
    ctx.clock.now(),
    creates.map((c) => c.via ?? null),
  ];
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.executePrepared<Outcome>('create_list_items', CompiledQuery.raw(CALL, parameters));
    } catch (error) {
      if (attempt >= ATTEMPTS || !RETRIED.has(codeOf(error) as string)) throw error;
    }
  }
}

function result(ctx: AppContext, create: ListItemCreate, outcome: Outcome | undefined): CreatedListItem | Error {
  if (outcome?.o_outcome === 'created') {
    return {
      itemId: outcome.o_item_id!,
      listContentId: outcome.o_list_content_id!,
      entries: outcome.o_entry_ids!.map((id, i) => ({ id, text: create.texts[i]! })),
    };
  }
  // The answers of the transaction path, from the same checks.
  const { quotas } = ctx.config;
  switch (outcome?.o_outcome) {
    case 'over_quota':
      return quotaRefusal(quotas.itemsPerTopic, 'quotas.itemsPerTopic');
    case 'over_account_items':
      return itemsBoundRefusal(quotas);
    case 'over_account_entries':
      return entriesBoundRefusal(quotas);
    default:
      return notFound();
  }
}

const loaders = new WeakMap<AppContext, DataLoader<ListItemCreate, CreatedListItem>>();

function loaderFor(ctx: AppContext): DataLoader<ListItemCreate, CreatedListItem> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader<ListItemCreate, CreatedListItem>(
      async (creates) => {
        // By account: every call takes the app users' locks in the same order (no deadlock between calls).
        const order = creates.map((_, i) => i).sort((a, b) => creates[a]!.accountId - creates[b]!.accountId || a - b);
        const outcomes = await runCall(
          ctx,
          order.map((i) => creates[i]!),
        );
        const byCreate = new Array<Outcome | undefined>(creates.length);
        for (const outcome of outcomes) byCreate[order[outcome.o_index - 1]!] = outcome;
        return creates.map((create, i) => result(ctx, create, byCreate[i]));
      },
      { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
    );
    loaders.set(ctx, loader);
  }
  return loader;
}

/** Creates the list item with the others that arrive in this turn; resolves once it is durable. */
export function createListItemTogether(ctx: AppContext, create: ListItemCreate): Promise<CreatedListItem> {
  return loaderFor(ctx).load(create);
}

/**
 * A list item create under one of the caller's topics: gathered with the others of this turn
 * into one database call where the database has the write functions, answered by `answer`;
 * elsewhere `write` runs through `writeUnderTopic`. Both paths check and answer alike.
 */
export async function writeListItemUnderTopic<T>(
  ctx: AppContext,
  terms: WriteTerms,
  create: ListItemCreate,
  answer: (created: CreatedListItem) => T,
  write: (trx: Kysely<Database>, held: Held, usage: Usage) => Promise<T>,
): Promise<T> {
  // A create under an Idempotency-Key claims it in its own transaction: it is not gathered. An
  // accessor's is, with its event for the owner's activity log (migrations 0036, 0038).
  if (!ctx.db.writeFunctions || terms.idempotencyKey) {
    return writeUnderTopic(ctx, terms, create.accountId, create.topicId, write, { items: 1, entries: create.texts.length });
  }
  const { activity } = terms;
  return answer(await createListItemTogether(ctx, activity ? { ...create, readerId: activity.readerId, via: activity.via } : create));
}
