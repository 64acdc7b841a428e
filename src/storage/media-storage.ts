// Where uploaded files live, behind a small interface that every store implements (the local
// disk, an S3-compatible object store), chosen by MEDIA_STORAGE in open-media-storage.ts.
// Objects are immutable: a key is written once, read many times, removed once.
import type { Readable } from 'node:stream';

/** Bytes `start` to `end`, both inclusive (as in an HTTP Range header). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A file received in full but not yet visible under its key. */
export interface IncomingFile {
  /** Bytes received. */
  readonly size: number;
  /** Makes the file readable under its key. */
  commit(): Promise<void>;
  /** Drops the file; nothing is left behind. */
  discard(): Promise<void>;
}

export interface MediaStorage {
  /**
   * Streams `source` into a temporary object that becomes `key` on commit. If the stream
   * fails, nothing is left behind and the error is rethrown.
   */
  receive(key: string, source: Readable): Promise<IncomingFile>;
  /** The object's bytes (or one range of them); null when there is no object under `key`. */
  open(key: string, range?: ByteRange): Promise<Readable | null>;
  /** Whether there is an object under `key`, without reading it (a HEAD request). */
  exists(key: string): Promise<boolean>;
  /** Removes the object; a missing object is not an error. */
  remove(key: string): Promise<void>;
  /** Every stored key (not uploads still being received), in no particular order: for backups. */
  list(): AsyncIterable<string>;
}
