// The web client's production build (web/, Vite), called by scripts/build.ts into the same
// build directory as the service (<build>/web), so the `dist` switch stays one atomic rename.
//
// Budget (issue 14): the JavaScript a browser must load before the first page shows — the
// entry chunk and every chunk it imports statically, not the lazily loaded pages — at most
// 80 KB gzipped. The build prints it and fails above it.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const ROOT = resolve(import.meta.dirname, '..');
export const WEB_ROOT = join(ROOT, 'web');
export const INITIAL_JS_BUDGET_BYTES = 80 * 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/** The entry's chunks and those it imports statically, as files under `outDir`. */
function initialChunks(outDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  return [...files].filter((file) => file.endsWith('.js'));
}

/** Builds the web client into `outDir`; returns the initial JavaScript's gzipped size in bytes. */
export async function buildWeb(outDir: string, log: (line: string) => void = console.log): Promise<number> {
  await build({
    configFile: join(WEB_ROOT, 'vite.config.ts'),
    root: WEB_ROOT,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  const chunks = initialChunks(outDir);
  const gzipped = chunks.reduce((sum, file) => sum + gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length, 0);
  const kb = (gzipped / 1024).toFixed(1);
  log(`web client: initial JavaScript ${kb} KB gzipped (${chunks.length} file(s); budget ${INITIAL_JS_BUDGET_BYTES / 1024} KB)`);
  if (gzipped > INITIAL_JS_BUDGET_BYTES) {
    throw new Error(`build: the web client's initial JavaScript is ${kb} KB gzipped, over the ${INITIAL_JS_BUDGET_BYTES / 1024} KB budget`);
  }
  return gzipped;
}

// `node --import tsx scripts/build-web.ts [outDir]`: the web client alone (default web/dist).
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  await buildWeb(resolve(process.argv[2] ?? join(WEB_ROOT, 'dist')));
}
