// What one write is held to beyond the caller's access, given by the route that takes it in
// and passed to the write kernel (owned-write.ts): none for most writes.

import type { SyncedType } from '../../db/synced-types.ts';
import type { RequestVia } from '../../activity/activity-events.ts';

/** A create's Idempotency-Key (idempotent-create.ts), claimed by the write kernel within the create's transaction. */
export interface IdempotencyClaim {
  accountId: number;
  key: string;
  /** The request's; an upload's is set once its file is read (`fingerprintUpload`). */
  fingerprint: string;
}

/**
 * An accessor's write, for its owner's activity log (docs/activity.md): the write kernel records
 * it in the write's transaction, with the object's name at that time.
 */
export interface AccessorWrite {
  /** The accessor's account. */
  readerId: number;
  /** The owner's account, whose log it is in. */
  ownerAccountId: number;
  /** What is written: a synced type (profile, topic, item, …), or an emergency link. */
  type: SyncedType | 'emergency_link';
  action: 'created' | 'updated' | 'deleted';
  /** How the request came (activity-events.ts `viaOf`). */
  via: RequestVia;
  /** The object's id; for a create, taken from what the write returns. */
  id?: number;
}

export interface WriteTerms {
  /** An accessor's write, recorded in its owner's activity log; absent for the owner's own. */
  activity?: AccessorWrite;
  /**
   * A conditional write's (If-Match, conditional-write.ts): the app user's data version its tag
   * was checked at. The write is refused when another write came in between (`VersionMoved`),
   * and the check is made again.
   */
  checkedAtVersion?: number;
  /** A create sent with an Idempotency-Key: claimed in the create's transaction, so the key commits with it. */
  idempotencyKey?: IdempotencyClaim;
}

/** A write held to nothing more. */
export const NO_TERMS: WriteTerms = Object.freeze({});
