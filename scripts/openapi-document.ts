// The service's OpenAPI document, as /openapi.json serves it, without a running deployment:
// a service is started on a throwaway SQLite database, asked, and stopped. The typed client
// (web/src/api/) is generated from it and the OpenAPI lint reads it.
//
// `npm run openapi -- <file>` writes it to <file> (standard output without one).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';

/** The address the document names as its server: what `npm start` listens on by default. */
export const DOCUMENT_PUBLIC_URL = 'http://localhost:8000';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'profile-service-openapi-'));
  try {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: DOCUMENT_PUBLIC_URL,
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      MAIL_DIR: join(dir, 'mail'),
      MEDIA_STORAGE: `fs:${join(dir, 'media')}`,
      LOG_LEVEL: 'silent',
      // A busy machine (the tests running beside it) is not an overloaded service: never 503.
      OVERLOAD_EVENT_LOOP_DELAY: '0',
    });
    const server = await startServer(config);
    try {
      const response = await fetch(`${server.address}/openapi.json`);
      if (!response.ok) throw new Error(`/openapi.json answered ${response.status}`);
      return (await response.json()) as Record<string, unknown>;
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
  const out = process.argv[2];
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
}
