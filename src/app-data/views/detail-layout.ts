// Where each topic and each item lies in a kept profile detail's bytes, with the stamp each was
// rendered at (profile-rendering.ts): a read after a write copies what did not change out of
// the kept bytes into the new ones, and serialises only what did.
//
// An item's offsets count from its topic's start, so a topic that did not change moves into a
// new body with its items' offsets as they were: only the topic's own record is made again.
import { keptJoin } from './kept-bytes.ts';

/** One item's bytes within its topic's, and the item's rendered_version (migration 0043). */
export interface ItemSpan {
  readonly id: number;
  readonly version: number;
  /** From the topic's start. */
  readonly start: number;
  readonly end: number;
}

/** One topic's bytes within the detail's, its rendered_version (migration 0034), and what its stamp does not cover. */
export interface TopicSpan {
  readonly id: number;
  readonly version: number;
  /** The type and name the topic's head shows (a rename does not move the topic's stamp). */
  readonly check: string;
  readonly start: number;
  readonly end: number;
  /** Where its first item starts (after `…"items":[`), from the topic's start. */
  readonly itemsStart: number;
  /** In id order. */
  readonly items: readonly ItemSpan[];
}

export interface DetailLayout {
  /** What of the profile's row its opening shows. */
  readonly headCheck: string;
  /** Where the opening (`…"topics":[`) ends. */
  readonly headEnd: number;
  /** In id order. */
  readonly topics: readonly TopicSpan[];
}

/** What a layout holds in memory besides the body, counted against the cache's budget: V8's heap for each record (79 bytes measured, its strings and arrays included). */
export const SPAN_BYTES = 80;

export function layoutBytes(layout: DetailLayout): number {
  let spans = 1 + layout.topics.length;
  for (const topic of layout.topics) spans += topic.items.length;
  return spans * SPAN_BYTES;
}

/**
 * A body being assembled from pieces (new bytes, or views into a kept body), copied once into
 * memory of its own when it is done (kept-bytes.ts).
 */
export class Assembly {
  readonly #pieces: Buffer[] = [];
  #length = 0;

  /** The bytes added so far: where the next piece starts. */
  get length(): number {
    return this.#length;
  }

  add(piece: Buffer): void {
    this.#pieces.push(piece);
    this.#length += piece.byteLength;
  }

  join(): Buffer {
    return keptJoin(this.#pieces);
  }
}
