// The real service as a child process (`node --import tsx src/main.ts`, or a production build's
// entry point), for tests that kill it with SIGKILL and start it again on the same database.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './free-port.ts';
import { testMediaStorageEnv } from './media-storage.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

/**
 * `nodeArgs`: what node runs, the sources through tsx unless told otherwise. `env`: more
 * variables, or other values for these (LOG_LEVEL among them). `logLines`: where the lines the
 * service logs go; without it they are dropped.
 */
export async function startServiceProcess(
  databaseUrl: string,
  dataDir: string,
  nodeArgs = ['--import', 'tsx', 'src/main.ts'],
  env: Record<string, string> = {},
  logLines?: string[],
): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://api.test',
      DATABASE_URL: databaseUrl,
      MAIL_DIR: join(dataDir, 'mail'),
      ...(await testMediaStorageEnv(dataDir)),
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'silent',
      OUTBOX_POLL_INTERVAL: '100ms',
      OVERLOAD_EVENT_LOOP_DELAY: '0',
      ...env,
    },
    stdio: ['ignore', logLines ? 'pipe' : 'ignore', 'inherit'],
  });
  if (logLines) createInterface({ input: child.stdout! }).on('line', (line) => logLines.push(line));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the service did not start');
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return { child, url, exited };
}
