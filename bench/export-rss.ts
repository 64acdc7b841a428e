// Memory of the data export (docs/accounts.md: the service's memory does not grow with the archive's
// size). `npx node --import tsx bench/export-rss.ts [--files 20] [--mb 10] [--db postgres://…] [--no-build]`
//
// Builds, seeds one account, uploads its media through the API (random bytes behind a PNG
// header, so the gallery takes them), then starts a fresh service process (the uploads' own
// memory is not counted) and downloads the export while sampling the process's resident memory.
// Prints the peak RSS (VmHWM of /proc/<pid>/status) before and after the download. The archive
// goes to a file and is checked with yauzl: every entry there, with the size it should have.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
import yauzl from 'yauzl';
import { benchAccounts, createBenchDatabase, seed } from './fixtures.ts';
import { detectPinning } from './pinning.ts';
import { pngOfSize } from './png.ts';
import { ROOT, startService } from './processes.ts';

const MB = 1_000_000;

const mib = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 1024 ** 2).toFixed(1)} MiB`);

function vmRss(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The archive's entries: names and uncompressed sizes, read from the file (not into memory). */
function listZip(file: string): Promise<Array<{ name: string; size: number }>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: Array<{ name: string; size: number }> = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push({ name: entry.fileName, size: entry.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      files: { type: 'string', default: '20' },
      mb: { type: 'string', default: '10' },
      db: { type: 'string', default: 'sqlite' },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const files = Number(values.files);
  const fileBytes = Number(values.mb) * MB;
  if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });

  const workDir = mkdtempSync(join(tmpdir(), 'profile-export-rss-'));
  const database = await createBenchDatabase(values.db!, 'export', workDir, 1);
  const pinning = detectPinning();
  try {
    await seed(database);
    const setup = await startService({ databaseUrl: database.url, pinning, dataDir: workDir, name: 'setup' });
    let token: string;
    let appUserId: number;
    try {
      token = (await benchAccounts(setup.url, database.url, [1])).accounts[0]!.token;
      const users = (await (await fetch(`${setup.url}/app/users/`, { headers: { authorization: `Token ${token}` } })).json()) as Array<{
        id: number;
      }>;
      appUserId = users[0]!.id;
      for (let i = 0; i < files; i++) {
        const form = new FormData();
        form.append('name', `Video ${i + 1}`);
        form.append('file', new Blob([new Uint8Array(pngOfSize(fileBytes))]), `video-${i + 1}.png`);
        const response = await fetch(`${setup.url}/app/users/${appUserId}/gallery/`, {
          method: 'POST',
          headers: { authorization: `Token ${token}` },
          body: form,
        });
        if (response.status !== 201) throw new Error(`upload ${i + 1} answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      }
    } finally {
      await setup.stop();
    }

    const service = await startService({ databaseUrl: database.url, pinning, dataDir: workDir, name: 'export' });
    try {
      // One authenticated request first, so the baseline includes what any request brings in.
      await (await fetch(`${service.url}/account/profile/`, { headers: { authorization: `Token ${token}` } })).arrayBuffer();
      const before = { hwm: service.peakRssBytes(), rss: vmRss(service.pid) };
      let sampledMax = before.rss ?? 0;
      const sampler = setInterval(() => {
        sampledMax = Math.max(sampledMax, vmRss(service.pid) ?? 0);
      }, 50);
      const started = performance.now();
      const response = await fetch(`${service.url}/account/export/`, { headers: { authorization: `Token ${token}` } });
      if (response.status !== 200) throw new Error(`the export answered ${response.status}: ${await response.text()}`);
      const archive = join(workDir, 'export.zip');
      await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(archive));
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const after = { hwm: service.peakRssBytes(), rss: vmRss(service.pid) };

      const entries = await listZip(archive);
      const media = entries.filter((entry) => entry.name.startsWith('media/'));
      if (media.length !== files || media.some((entry) => entry.size !== fileBytes) || entries.at(-1)?.name !== 'account.json') {
        throw new Error(`unexpected archive: ${JSON.stringify(entries)}`);
      }
      const size = statSync(archive).size;
      console.log(
        `Export of ${files} media files × ${values.mb} MB (${(files * fileBytes) / MB} MB of media), ${database.url.split(':')[0]}:`,
      );
      console.log(`  archive: ${(size / MB).toFixed(1)} MB, ${entries.length} entries, checked with yauzl`);
      console.log(`  download: ${seconds.toFixed(1)} s (${(size / MB / seconds).toFixed(0)} MB/s)`);
      console.log(
        `  service peak RSS (VmHWM) before: ${mib(before.hwm)}, after: ${mib(after.hwm)} (+${mib((after.hwm ?? 0) - (before.hwm ?? 0))})`,
      );
      console.log(
        `  service RSS (VmRSS) before: ${mib(before.rss)}, highest sampled every 50 ms during: ${mib(sampledMax)}, after: ${mib(after.rss)}`,
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
