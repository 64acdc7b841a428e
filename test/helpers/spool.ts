// What a test server's spool folder (SPOOL_DIR, set by startTestServer) still holds once its
// large answers have ended. A spool is removed just after its response ends, which the client
// may see first: this waits (up to WAIT_MS, returning as soon as the folder is empty).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestServer } from './server.ts';
import { WAIT_MS } from './wait.ts';

export async function spoolLeftBehind(server: TestServer): Promise<string[]> {
  const folder = join(server.dataDir, 'spool');
  const deadline = Date.now() + WAIT_MS;
  while (readdirSync(folder).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return readdirSync(folder);
}
