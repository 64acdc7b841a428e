// Where each topic and each item lies in a kept profile detail's bytes, with the stamp each was
// rendered at (profile-rendering.ts): a read after a write copies what did not change out of
// the kept bytes into the new ones, and serialises only what did.
//
// An item's offsets count from its topic's start, so a topic that did not change moves into a
// new body with its items' offsets as they were: only the topic's own record is made again.

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
 * A body being assembled from pieces (new bytes, or ranges of a kept body, copied without a view
 * of their own), copied once into memory of its own when it is done (kept-bytes.ts says why).
 * Ranges of one body that follow each other are one piece, copied at once: a read after a
 * one-item write copies the kept body in three or four ranges, not one per item and comma.
 */
export class Assembly {
  readonly #pieces: Buffer[] = [];
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  #length = 0;

  /** The bytes added so far: where the next piece starts. */
  get length(): number {
    return this.#length;
  }

  /** The ranges the join copies (for tests). */
  get pieces(): number {
    return this.#pieces.length;
  }

  /** `bytes` from `start` to `end` (all of it by default). */
  add(bytes: Buffer, start = 0, end = bytes.byteLength): void {
    this.#length += end - start;
    const last = this.#pieces.length - 1;
    if (last >= 0 && this.#pieces[last] === bytes && this.#ends[last] === start) {
      this.#ends[last] = end;
      return;
    }
    this.#pieces.push(bytes);
    this.#starts.push(start);
    this.#ends.push(end);
  }

  /**
   * `bytes` (a comma, a closing bracket): taken from the last piece's own bytes when they go on
   * with the same ones, so that the ranges of a kept body on either side are copied as one.
   */
  punctuation(bytes: Buffer): void {
    const last = this.#pieces.length - 1;
    const piece = this.#pieces[last];
    const end = this.#ends[last]!;
    let same = piece !== undefined && end + bytes.byteLength <= piece.byteLength;
    for (let i = 0; same && i < bytes.byteLength; i++) same = piece?.[end + i] === bytes[i];
    if (same) {
      this.#ends[last] = end + bytes.byteLength;
      this.#length += bytes.byteLength;
    } else {
      this.add(bytes);
    }
  }

  join(): Buffer {
    const joined = Buffer.allocUnsafeSlow(this.#length);
    let at = 0;
    for (let i = 0; i < this.#pieces.length; i++) at += this.#pieces[i]!.copy(joined, at, this.#starts[i], this.#ends[i]);
    return joined;
  }
}
