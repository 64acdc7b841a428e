// The processes under measurement: the real service (`node dist/main.js`, production
// settings) and the ceiling server, each started pinned to the server CPU.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Pinning } from './pinning.ts';
import { postgresCpuSeconds } from './postgres-cpu.ts';
import { cpuCounter, peakRssBytes } from './proc-stats.ts';

export const ROOT = join(import.meta.dirname, '..');

/** The Node flags of `npm start` (package.json), so the bench runs the service as production does. */
export function productionNodeFlags(root = ROOT): string[] {
  const start: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

export interface MeasuredProcess {
  url: string;
  pid: number;
  /** CPU seconds used since the first reading (proc-stats.ts): only differences of two readings say anything. */
  cpuSeconds(): number | undefined;
  /** On PostgreSQL: the database server's CPU seconds for this service's database (postgres-cpu.ts). */
  databaseCpuSeconds?(): number | undefined;
  peakRssBytes(): number | undefined;
  stop(): Promise<void>;
}

export interface ServiceProcess extends MeasuredProcess {
  /** From spawn to the first 200 of GET /health. */
  startupMs: number;
}

export interface ServiceOptions {
  databaseUrl: string;
  pinning: Pinning;
  /** Mail, media and the server's log go here. */
  dataDir: string;
  name: string;
  /** Variables set after the bench's own (a workload's limits). */
  env?: Record<string, string>;
  /** The checkout whose build runs (`<root>/dist/main.js`); default: this one. */
  root?: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Servers still running: a bench that exits early (an error, --compare's Ctrl-C) takes them with it. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function spawnPinned(prefix: string[], args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  const command = [...prefix, process.execPath, ...args];
  const child = spawn(command[0]!, command.slice(1), options);
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function measured(child: ChildProcess, url: string): MeasuredProcess {
  const pid = child.pid!;
  return {
    url,
    pid,
    cpuSeconds: cpuCounter(pid),
    peakRssBytes: () => peakRssBytes(pid),
    stop: () => stopProcess(child),
  };
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export async function startService(options: ServiceOptions): Promise<ServiceProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = join(options.dataDir, `${options.name}.log`);
  const log = openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    RATE_LIMITS: 'off',
    MAIL_DIR: join(options.dataDir, 'mail'),
    MEDIA_STORAGE: `fs:${join(options.dataDir, 'media')}`,
    // W3 adds tens of thousands of items under a few topics (and so a few accounts).
    QUOTA_ITEMS_PER_TOPIC: '100000000',
    QUOTA_ITEMS_PER_ACCOUNT: '100000000',
    QUOTA_ENTRIES_PER_ACCOUNT: '1000000000',
    ...options.env,
  };
  const started = performance.now();
  const root = options.root ?? ROOT;
  const child = spawnPinned(options.pinning.server, [...productionNodeFlags(root), join(root, 'dist/main.js')], {
    cwd: options.dataDir,
    env,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) =>
      reject(new Error(`the service exited during start-up (${signal ?? `code ${code}`}):\n${tail(logFile)}`)),
    );
  });
  exited.catch(() => {});

  const deadline = started + 60_000;
  for (;;) {
    const healthy = await Promise.race([
      fetch(`${url}/health`).then(
        (response) => response.status === 200,
        () => false,
      ),
      exited,
    ]);
    if (healthy) break;
    if (performance.now() > deadline) {
      await stopProcess(child);
      throw new Error(`the service did not answer GET /health with 200 within 60 s:\n${tail(logFile)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startupMs = performance.now() - started;
  const database = /^postgres(ql)?:/.test(options.databaseUrl) ? new URL(options.databaseUrl).pathname.slice(1) : undefined;
  return { ...measured(child, url), startupMs, ...(database && { databaseCpuSeconds: () => postgresCpuSeconds(database) }) };
}

/** A bare node:http server answering every request with `bodyFile`'s bytes. */
export async function startCeiling(pinning: Pinning, bodyFile: string, contentType: string): Promise<MeasuredProcess> {
  const child = spawnPinned(pinning.server, [join(ROOT, 'bench/ceiling.ts'), bodyFile, contentType], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the ceiling server exited (code ${code})`)));
  });
  lines.close();
  child.stdout!.resume();
  const { port } = JSON.parse(first) as { port: number };
  return measured(child, `http://127.0.0.1:${port}`);
}

/** argon2id verifications per second on the server CPU: W4's physical limit. */
export async function measureArgon2Limit(pinning: Pinning, seconds: number): Promise<number> {
  const child = spawnPinned(pinning.server, [join(ROOT, 'bench/argon2-limit.ts'), String(seconds)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the argon2id limit measurement failed (code ${code})`);
  return (JSON.parse(output) as { verificationsPerSecond: number }).verificationsPerSecond;
}
