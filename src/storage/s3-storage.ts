// MEDIA_STORAGE=s3://<bucket>[/<prefix>]: media in an S3-compatible object store (AWS S3,
// MinIO, Ceph, R2, …), for several instances sharing one store. Layout under the prefix:
//   <prefix>/<key>                      stored objects
//   <prefix>/.incoming/<key>.<random>   uploads being received
// An upload streams into a temporary object under .incoming (lib-storage's Upload: one PUT for
// a small file, a multipart upload of 5 MiB parts for a larger one, so memory holds a couple of
// parts whatever the file's size). commit() copies it to its key inside the store (no bytes
// pass through the service) and deletes the temporary object. A process that crashes while
// receiving leaves its object under .incoming, where the start-up sweep finds it by age, as on
// local disk — an object written straight to its final key would be an orphan no listing can
// tell from a live file. See docs/media.md.
//
// Failures to reach the store (refused, reset or silent connections, 5xx, throttling) become
// the service's 503 "unavailable", like the database's; anything else (access denied, a bug)
// stays an error.
import { randomBytes } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { type DomainError, unavailable } from '../errors.ts';
import type { ByteRange, IncomingFile, MediaStorage } from './media-storage.ts';
import { isStorageKey } from './storage-keys.ts';
import { NETWORK_ERROR_CODES } from '../network-errors.ts';

export interface S3StorageOptions {
  bucket: string;
  /** '' or a path ending in '/'. */
  prefix: string;
  /** S3_ENDPOINT; undefined: AWS itself. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  region: string;
  /** From AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY; undefined: the SDK's default chain (profiles, instance roles). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
}

export const MEDIA_STORE_UNAVAILABLE = 'media.storeUnavailable';
const RETRY_AFTER_SECONDS = 5;

const INCOMING = '.incoming/';
/** Uploads older than this under .incoming were abandoned by a crashed process. */
const ABANDONED_AFTER_MS = 24 * 3_600_000;
/**
 * lib-storage's smallest part, one in flight: about two parts of memory per upload (one being
 * sent, the next being filled). The client's request, not the store, is what limits an upload's pace.
 */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 1;

const THROTTLED = new Set(['SlowDown', 'ServiceUnavailable', 'RequestTimeout', 'RequestTimeTooSkewed', 'InternalError', 'TimeoutError']);

/** The store could not be reached or did not answer in time: try again later. */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return true;
  if (THROTTLED.has(error.name)) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (error instanceof S3ServiceException && status !== undefined && status >= 500) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isStoreUnavailable(inner, depth + 1))) return true;
  return isStoreUnavailable(error.cause, depth + 1);
}

/** A failure to reach the store as the service's 503; any other error as it is. */
function asServiceError(error: unknown): unknown {
  if (!isStoreUnavailable(error)) return error;
  const mapped: DomainError = unavailable(MEDIA_STORE_UNAVAILABLE, RETRY_AFTER_SECONDS);
  mapped.cause = error;
  return mapped;
}

function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

/** A client for the store (media here, backups in src/backup/): bounded waits, few retries. */
export function s3Client(options: Omit<S3StorageOptions, 'bucket' | 'prefix'>): S3Client {
  return new S3Client({
    region: options.region,
    ...(options.endpoint !== undefined && { endpoint: options.endpoint }),
    forcePathStyle: options.forcePathStyle,
    ...(options.credentials && { credentials: options.credentials }),
    // Bounded waits: a store that does not answer is a 503 within seconds, not a hung request.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    maxAttempts: 3,
    // Checksums only where S3 requires them: many S3-compatible stores refuse (or store) the
    // aws-chunked trailers that the SDK's default adds to every streamed PUT. TLS and the
    // store's own checks cover the transfer.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export class S3Storage implements MediaStorage {
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;

  private constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.client = s3Client(options);
  }

  /** Opens the store: the bucket must answer (HeadBucket), then old abandoned uploads are removed. */
  static async open(options: S3StorageOptions): Promise<S3Storage> {
    const storage = new S3Storage(options);
    const where = `s3://${options.bucket}/${options.prefix} at ${options.endpoint ?? 'AWS'}`;
    try {
      await storage.client.send(new HeadBucketCommand({ Bucket: options.bucket }));
    } catch (error) {
      storage.client.destroy();
      throw new Error(`MEDIA_STORAGE: the bucket ${where} cannot be reached: ${describe(error)}`, { cause: error });
    }
    try {
      await storage.removeAbandonedUploads();
    } catch (error) {
      storage.client.destroy();
      throw new Error(`MEDIA_STORAGE: could not list ${where}: ${describe(error)}`, { cause: error });
    }
    return storage;
  }

  async receive(key: string, source: Readable): Promise<IncomingFile> {
    const finalKey = this.objectKey(key);
    const tempKey = `${this.prefix}${INCOMING}${key}.${randomBytes(6).toString('hex')}`;
    let size = 0;
    let sourceError: unknown;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    source.once('error', (error) => {
      sourceError = error;
      counter.destroy(error);
    });
    source.pipe(counter);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: tempKey, Body: counter },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      source.unpipe(counter);
      counter.destroy();
      // A single PUT that failed stored nothing; a multipart upload was aborted by Upload.
      // Should the PUT have landed after all (an answer lost), drop it.
      await this.deleteObject(tempKey).catch(() => {});
      // The client's broken stream, when that is what failed, rather than what it caused.
      throw sourceError ?? asServiceError(error);
    }
    return {
      size,
      commit: async () => {
        try {
          await this.client.send(
            new CopyObjectCommand({ Bucket: this.bucket, Key: finalKey, CopySource: copySource(this.bucket, tempKey) }),
          );
        } catch (error) {
          throw asServiceError(error);
        }
        // Left behind if this fails: the start-up sweep removes it a day later.
        await this.deleteObject(tempKey).catch(() => {});
      },
      discard: async () => {
        try {
          await this.deleteObject(tempKey);
        } catch (error) {
          throw asServiceError(error);
        }
      },
    };
  }

  async open(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return null;
      throw asServiceError(error);
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw asServiceError(error);
    }
  }

  async remove(key: string): Promise<void> {
    try {
      // S3 answers 204 for a key that is not there.
      await this.deleteObject(this.objectKey(key));
    } catch (error) {
      if (isMissing(error)) return;
      throw asServiceError(error);
    }
  }

  async *list(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }));
      } catch (error) {
        throw asServiceError(error);
      }
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.prefix.length);
        // Only the service's own keys: not .incoming/, nor what else may share the prefix.
        if (key !== undefined && isStorageKey(key)) yield key;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async deleteObject(objectKey: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
  }

  private objectKey(key: string): string {
    // Keys are generated by the service; checking again keeps any other string out of the bucket.
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return `${this.prefix}${key}`;
  }

  /**
   * Objects under .incoming older than a day. Parts of a multipart upload cut short by a crash
   * are not objects and are not listed: a bucket lifecycle rule (AbortIncompleteMultipartUpload)
   * removes those (docs/media.md).
   */
  private async removeAbandonedUploads(): Promise<void> {
    const cutoff = Date.now() - ABANDONED_AFTER_MS;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${this.prefix}${INCOMING}`, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && object.LastModified && object.LastModified.getTime() < cutoff) await this.deleteObject(object.Key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

/** CopySource is "<bucket>/<key>", URL-encoded (keys here are hex, dots and slashes, but still). */
function copySource(bucket: string, objectKey: string): string {
  return `${bucket}/${objectKey.split('/').map(encodeURIComponent).join('/')}`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const code = (error as { code?: unknown }).code;
  const detail = [error.name !== 'Error' ? error.name : undefined, typeof code === 'string' ? code : undefined, status && `HTTP ${status}`]
    .filter(Boolean)
    .join(', ');
  return `${error.message || 'no answer'}${detail ? ` (${detail})` : ''}`;
}
