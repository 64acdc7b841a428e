// A real S3-protocol server for the tests (s3rver, in this process, on a free port, storing
// into a temporary directory), and the settings that point the service at it. The service
// talks to it over HTTP with the AWS SDK, as it would to any S3-compatible store.
import { utimesSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { tempDir } from './temp-dir.ts';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the bucket: a server started again on it finds the same objects. */
  directory: string;
  /** MEDIA_STORAGE and the S3/AWS variables for a store under `prefix` of the bucket. */
  env(prefix: string): Record<string, string>;
  /** "METHOD /path" of every request the server has received, oldest first. */
  requests: string[];
  /** A client of this server with its credentials; the caller destroys it. */
  client(): S3Client;
  /** Puts an object (over S3), dated `lastModified` when given. */
  putObject(key: string, body: Buffer, lastModified?: Date): Promise<void>;
  close(): Promise<void>;
}

/** s3rver's own credentials. */
const ACCESS_KEY = 'S3RVER';

/** `directory`: where the objects are kept (by default a new temporary folder). */
export async function startS3Server(bucket = 'media', port = 0, directory = tempDir('profile-service-s3-')): Promise<TestS3Server> {
  const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
  keepEmptyFolders(server);
  const address = await server.run();
  // Never what keeps a test process alive.
  server.httpServer.unref();
  const requests: string[] = [];
  server.httpServer.on('request', (request: { method: string; url: string }) =>
    requests.push(`${request.method} ${request.url.split('?')[0]}`),
  );
  const endpoint = `http://127.0.0.1:${address.port}`;
  const env = (prefix: string) => ({
    MEDIA_STORAGE: `s3://${bucket}/${prefix}`,
    S3_ENDPOINT: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: ACCESS_KEY,
  });
  const client = () =>
    new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    });
  return {
    endpoint,
    bucket,
    directory,
    env,
    requests,
    client,
    async putObject(key, body, lastModified) {
      const s3 = client();
      try {
        await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
      } finally {
        s3.destroy();
      }
      // s3rver dates an object by its file's modification time.
      if (lastModified) utimesSync(server.store.getResourcePath(bucket, key, 'object'), lastModified, lastModified);
    },
    async close() {
      server.httpServer.closeAllConnections();
      await server.close();
    },
  };
}

/**
 * s3rver removes the folders a delete leaves empty. A put into that folder at the same moment
 * (another upload arriving under .incoming/ as one is committed) then opens its file in a folder
 * that is gone, and s3rver's write stream has no error handler: the ENOENT is an uncaught
 * exception that ends the test process. Empty folders cost the tests nothing, so deletes here
 * remove the object's files and leave its folder.
 */
function keepEmptyFolders(server: S3rver): void {
  const store = server.store;
  store.deleteObject = async (bucket, key) => {
    await Promise.all(
      ['object', 'object.md5', 'metadata.json'].map((resource) => rm(store.getResourcePath(bucket, key, resource), { force: true })),
    );
  };
}

let shared: Promise<TestS3Server> | undefined;

/** One server for every test server of this process (TEST_MEDIA_STORAGE=s3), each under a prefix of its own. */
export function sharedS3Server(): Promise<TestS3Server> {
  // It lives as long as the process: its folder (tempDir's) goes when the process does.
  shared ??= startS3Server();
  return shared;
}
