// The part of s3rver's API the tests use (the package ships no types).
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    configureBuckets?: Array<{ name: string }>;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    httpServer: Server;
    store: {
      getResourcePath(bucket: string, key: string, resource: string): string;
      deleteObject(bucket: string, key: string): Promise<void>;
    };
  }
}
