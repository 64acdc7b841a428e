// Live streams at scale (docs/offline-and-live.md): 1,000 live streams open on one instance, one write; how long until every
// stream has the event, and the memory each open stream costs the service.
// `npx node --import tsx bench/event-streams.ts [--streams 1000] [--writes 10] [--db postgres://…] [--no-build]`
//
// Builds, seeds, starts the production build, opens the streams (plain HTTP/1.1 connections,
// one each) on one app user, samples the service's RSS before and after, then makes writes one
// at a time through the API: for each, the time from sending it to the last stream's event.
import { execFileSync } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchAccounts, createBenchDatabase, seed } from './fixtures.ts';
import { detectPinning } from './pinning.ts';
import { ROOT, startService } from './processes.ts';

function vmRss(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

interface Stream {
  response: IncomingMessage;
  /** Resolves at the next event's arrival time (performance.now()). */
  nextEvent(): Promise<number>;
}

function openStream(url: string, token: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { authorization: `Token ${token}` } });
    req.on('error', reject);
    req.on('response', (response) => {
      if (response.statusCode !== 200) return reject(new Error(`the stream answered ${response.statusCode}`));
      let buffer = '';
      let waiting: ((at: number) => void) | undefined;
      let arrived: number[] = [];
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.includes('data: ')) {
            const at = performance.now();
            if (waiting) {
              waiting(at);
              waiting = undefined;
            } else arrived.push(at);
          }
          end = buffer.indexOf('\n\n');
        }
      });
      resolve({
        response,
        nextEvent: () => {
          if (arrived.length > 0) {
            const [first, ...rest] = arrived;
            arrived = rest;
            return Promise.resolve(first!);
          }
          return new Promise((done) => {
            waiting = done;
          });
        },
      });
    });
    req.end();
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      streams: { type: 'string', default: '1000' },
      writes: { type: 'string', default: '10' },
      db: { type: 'string', default: 'sqlite' },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const count = Number(values.streams);
  const writes = Number(values.writes);
  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const workDir = mkdtempSync(join(tmpdir(), 'profile-event-streams-'));
  const database = await createBenchDatabase(values.db!, 'streams', workDir, 1);
  const pinning = detectPinning();
  try {
    await seed(database);
    const service = await startService({
      databaseUrl: database.url,
      pinning,
      dataDir: workDir,
      name: 'streams',
      // Every stream comes from this one process, on one account: both caps must let them all in.
      env: { EVENT_STREAMS_PER_ACCOUNT: String(count), EVENT_STREAMS_PER_IP: String(count) },
    });
    try {
      const token = (await benchAccounts(service.url, database.url, [1])).accounts[0]!.token;
      const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
      const users = (await (await fetch(`${service.url}/app/users/`, { headers })).json()) as Array<{ id: number }>;
      const appUserId = users[0]!.id;
      await (await fetch(`${service.url}/app/users/${appUserId}/changes/`, { headers })).arrayBuffer();

      const before = vmRss(service.pid);
      const streams: Stream[] = [];
      for (let i = 0; i < count; i++) streams.push(await openStream(`${service.url}/app/users/${appUserId}/events/`, token));
      // Let the streams settle (their first reads of the log) before measuring.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const after = vmRss(service.pid);

      const lastArrivals: number[] = [];
      const medians: number[] = [];
      for (let w = 0; w < writes; w++) {
        const arrivals = streams.map((stream) => stream.nextEvent());
        const sent = performance.now();
        const response = await fetch(`${service.url}/app/users/${appUserId}/emergency-contacts/`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `Contact ${w}`, phone_number: '0123456789' }),
        });
        if (response.status !== 201) throw new Error(`the write answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
        const delays = (await Promise.all(arrivals)).map((at) => at - sent).sort((a, b) => a - b);
        lastArrivals.push(delays.at(-1)!);
        medians.push(percentile(delays, 50));
      }
      for (const stream of streams) stream.response.destroy();
      lastArrivals.sort((a, b) => a - b);
      medians.sort((a, b) => a - b);
      console.log(`Live streams: ${count} on one app user, ${writes} writes one at a time, ${database.url.split(':')[0]}:`);
      console.log(
        `  time from sending a write to its event on every stream: median ${percentile(lastArrivals, 50).toFixed(0)} ms, worst ${lastArrivals.at(-1)!.toFixed(0)} ms (the median stream: ${percentile(medians, 50).toFixed(0)} ms)`,
      );
      console.log(
        `  service RSS: ${(before / 1024 ** 2).toFixed(1)} MiB before, ${(after / 1024 ** 2).toFixed(1)} MiB with the streams open: ${((after - before) / count / 1024).toFixed(1)} KiB per stream`,
      );
    } finally {
      await service.stop();
    }
  } finally {
    await database.drop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
