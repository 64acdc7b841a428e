// The real service for a browser: the web client built once per test process (Vite, into a
// temporary folder), served by the service on a known free port so that PUBLIC_URL — and so
// every link in every e-mail — is the address the browser opens; mail to the real SMTP sink;
// the database and media store the suite runs on (TEST_DATABASE_URL, TEST_MEDIA_STORAGE).
import { buildWeb } from '../../scripts/build-web.ts';
import { freePort } from '../helpers/free-port.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { SmtpSink } from '../helpers/smtp-sink.ts';
import { tempDir } from '../helpers/temp-dir.ts';

export interface BrowserService {
  /** The service's address, which is also its PUBLIC_URL. */
  url: string;
  server: TestServer;
  sink: SmtpSink;
  close(): Promise<void>;
}

let built: Promise<string> | undefined;

/** The web client's production build, made once per process. */
export function builtWebClient(): Promise<string> {
  built ??= (async () => {
    const dir = tempDir('browser-tests-web-');
    await buildWeb(dir, () => {});
    return dir;
  })();
  return built;
}

function addressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'EADDRINUSE';
}

/**
 * `fixedPort`: listen there (and make it PUBLIC_URL's), for a caller that had to know it first.
 * `host` names the address the browser opens: `localhost` for passkeys, since WebAuthn refuses
 * an IP address as its RP id (the service still listens on 127.0.0.1, which localhost reaches).
 */
export async function startBrowserService(
  env: Record<string, string> = {},
  host = '127.0.0.1',
  fixedPort?: number,
): Promise<BrowserService> {
  const webDir = await builtWebClient();
  const sink = new SmtpSink();
  await sink.listen();
  // The port must be known before start (PUBLIC_URL); another process may take it in between.
  for (let attempt = 1; ; attempt++) {
    // A port chosen by the caller (an OpenID provider registered its redirect URI first): no retry.
    const port = fixedPort ?? (await freePort());
    const url = `http://${host}:${port}`;
    try {
      const server = await startTestServer({ PORT: String(port), PUBLIC_URL: url, SMTP_URL: sink.url, WEB_CLIENT_DIR: webDir, ...env });
      return {
        url,
        server,
        sink,
        async close() {
          await server.close();
          await sink.close();
        },
      };
    } catch (error) {
      if (addressInUse(error) && attempt < 5 && fixedPort === undefined) continue;
      await sink.close();
      throw error;
    }
  }
}
