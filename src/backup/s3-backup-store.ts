// Backups in an S3-compatible bucket: <prefix><backup name>/{manifest.json, database.sqlite,
// media/…}, reached with the same S3_ENDPOINT and AWS_* settings as media. The manifest is
// put last: a backup without one was cut short, is never listed, and is removed by abandon().
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3ServiceException,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3StorageOptions } from '../storage/s3-storage.ts';
import { s3Client } from '../storage/s3-storage.ts';
import { type BackupStore, type BackupWriter, isBackupName, MANIFEST_FILE } from './backup-store.ts';

function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

export class S3BackupStore implements BackupStore {
  readonly where: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.where = `s3://${options.bucket}/${options.prefix}`;
    this.client = s3Client(options);
  }

  async create(name: string): Promise<BackupWriter> {
    const base = `${this.prefix}${name}/`;
    return {
      write: async (path, source) => {
        // One PUT for a small file, a multipart upload for a large one; memory holds a part or two.
        await new Upload({ client: this.client, params: { Bucket: this.bucket, Key: base + path, Body: source }, queueSize: 1 }).done();
      },
      finish: async (manifest) => {
        await this.client.send(
          new PutObjectCommand({ Bucket: this.bucket, Key: base + MANIFEST_FILE, Body: manifest, ContentType: 'application/json' }),
        );
      },
      abandon: () => this.removeUnder(base),
    };
  }

  async list(): Promise<string[]> {
    const names: string[] = [];
    for await (const common of this.pages({ Prefix: this.prefix, Delimiter: '/' }, 'CommonPrefixes')) {
      const name = common.slice(this.prefix.length).replace(/\/$/, '');
      if (isBackupName(name) && (await this.exists(`${this.prefix}${name}/${MANIFEST_FILE}`))) names.push(name);
    }
    return names.sort();
  }

  async read(name: string, path: string): Promise<Readable | null> {
    const key = `${this.prefix}${name === '' ? '' : `${name}/`}${path}`;
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    if (!isBackupName(name)) throw new Error(`not a backup: ${name}`);
    // The manifest first: a removal cut short leaves an incomplete backup, never a listed one with files missing.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: `${this.prefix}${name}/${MANIFEST_FILE}` }));
    await this.removeUnder(`${this.prefix}${name}/`);
  }

  close(): void {
    this.client.destroy();
  }

  private async removeUnder(prefix: string): Promise<void> {
    const keys: string[] = [];
    for await (const key of this.pages({ Prefix: prefix }, 'Contents')) keys.push(key);
    for (const key of keys) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  private async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** The keys (Contents) or common prefixes of a listing, page after page. */
  private async *pages(query: { Prefix: string; Delimiter?: string }, what: 'Contents' | 'CommonPrefixes'): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, ...query, ContinuationToken: token }));
      if (what === 'Contents') for (const object of page.Contents ?? []) yield object.Key!;
      else for (const common of page.CommonPrefixes ?? []) yield common.Prefix!;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
