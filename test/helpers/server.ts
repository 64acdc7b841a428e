// Starts the real service (real database, real outbox worker, real HTTP) for a test, and
// talks to it over HTTP.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer, type StartOptions } from '../../src/server.ts';
import { TestClock } from './clock.ts';
import { createTestDatabase } from './database.ts';
import { testMediaStorageEnv } from './media-storage.ts';
import { tempDir } from './temp-dir.ts';

export const PUBLIC_URL = 'http://api.test';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Send this string as the body, as is. */
  raw?: string | Buffer | FormData;
}

export interface TestServer {
  /** Where the server listens (http://127.0.0.1:<port>). */
  url: string;
  clock: TestClock;
  server: RunningServer;
  dataDir: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /** Turns an absolute URL the service wrote (PUBLIC_URL based) into one this test can fetch. */
  local(url: string): string;
  close(): Promise<void>;
}

/**
 * Stops the server's background passes (the outbox worker's polls, the account sweeper, the share expiry pass) and
 * waits for any under way, so that the database's query counter counts only what the test
 * does. A poll that lands between two readings of the counter would add one on a busy machine.
 */
export async function stopBackgroundWork(server: TestServer): Promise<void> {
  await server.server.worker.stop();
  await server.server.webhooks.stop();
  await server.server.sweeper.stop();
  await server.server.shareExpiry.stop();
}

/** Requests to a service listening at `url` (this process's test server, or a child process). */
export function requester(url: string): TestServer['request'] {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | Buffer | FormData | undefined;
    if (options.raw !== undefined) {
      body = options.raw;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (options.token) headers.authorization ??= `Token ${options.token}`;
    const response = await fetch(url + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    if (text && (response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as any, text };
  };
}

/** `options.log`: a logger of the test's own (to read what the server logs). */
export async function startTestServer(env: Record<string, string> = {}, options: Pick<StartOptions, 'log'> = {}): Promise<TestServer> {
  const database = await createTestDatabase();
  const dataDir = tempDir('profile-service-data-');
  const clock = new TestClock();
  let server: RunningServer;
  try {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL,
      DATABASE_URL: database.url,
      MAIL_DIR: join(dataDir, 'mail'),
      SPOOL_DIR: join(dataDir, 'spool'),
      // A test's next export may overtake the moment the last one gives its slot back.
      EXPORTS_AT_ONCE: '8',
      // fs:<dataDir>/media, or a prefix of the shared S3 server with TEST_MEDIA_STORAGE=s3.
      ...(await testMediaStorageEnv(dataDir)),
      RATE_LIMITS: 'off',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      OUTBOX_POLL_INTERVAL: '100ms',
      OUTBOX_RETRY_BASE: '100ms',
      // A test machine may be busy with other work: a slow event loop is not an overload here.
      OVERLOAD_EVENT_LOOP_DELAY: '0',
      ...env,
    });
    server = await startServer(config, { clock, log: options.log });
  } catch (error) {
    // Settings refused or a start that failed: no caller holds the database or the folder.
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const url = server.address;

  return {
    url,
    clock,
    server,
    dataDir,
    request: requester(url),
    local(absolute) {
      if (!absolute.startsWith(PUBLIC_URL)) throw new Error(`not a service URL: ${absolute}`);
      return url + absolute.slice(PUBLIC_URL.length);
    },
    async close() {
      await server.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
