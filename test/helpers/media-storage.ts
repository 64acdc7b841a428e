// Which media store the test services use, and what is in it, whichever it is. Local disk
// by default; TEST_MEDIA_STORAGE=s3 puts every test service's media in one S3 server started
// by this process (test/helpers/s3-server.ts), each service under a prefix of its own.
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { MediaStorageSpec } from '../../src/storage/open-media-storage.ts';
import { sharedS3Server } from './s3-server.ts';

export const mediaOnS3 = process.env.TEST_MEDIA_STORAGE === 's3';

/** MEDIA_STORAGE (and, on S3, its settings) for a service whose data lives in `dataDir`: the same dataDir, the same store. */
export async function testMediaStorageEnv(dataDir: string): Promise<Record<string, string>> {
  if (!mediaOnS3) return { MEDIA_STORAGE: `fs:${join(dataDir, 'media')}` };
  return (await sharedS3Server()).env(basename(dataDir));
}

/** Everything in the store, uploads being received included: file paths on disk, object keys in S3. Sorted. */
export async function listStoredObjects(spec: MediaStorageSpec): Promise<string[]> {
  if (spec.kind === 'fs') {
    if (!existsSync(spec.directory)) return [];
    return readdirSync(spec.directory, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
  }
  const client = new S3Client({
    region: spec.region,
    endpoint: spec.endpoint,
    forcePathStyle: spec.forcePathStyle,
    ...(spec.credentials && { credentials: spec.credentials }),
  });
  try {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: spec.bucket, Prefix: spec.prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  } finally {
    client.destroy();
  }
}

/** Whether a stored object's path or key (from listStoredObjects) is an upload still being received. */
export function isIncoming(stored: string): boolean {
  return stored.includes('.incoming/');
}
