// `npm run build`: the production build in dist/, bundled with esbuild, with the web client
// (Vite, scripts/build-web.ts) in dist/web/.
//
// Why a bundle and not tsc's one file per module: the service loads about 1,700 ES modules
// (TypeBox alone is 683 files, Kysely 257), and resolving and linking them was most of the
// start-up time (about 1 s to the first /health on a slow core; about 0.6 s bundled, see
// docs/decisions.md). Type checking stays with `tsc --noEmit` (npm run typecheck).
//
// Left out of the bundle, and loaded from node_modules as usual: native addons, packages that
// read files next to their own code, and those the service only imports on first use.
import { lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { BUILDS_DIR, buildsInUse, markBuildInUse } from '../src/builds-in-use.ts';
import { buildWeb } from './build-web.ts';

const ROOT = resolve(import.meta.dirname, '..');
const EXTERNAL = new Set([
  'better-sqlite3',
  '@node-rs/argon2',
  'pg-native', // native addons
  'pino',
  'thread-stream',
  '@fastify/swagger-ui',
  '@fastify/static', // files of their own (workers, static pages)
  'nodemailer',
  'jose',
  'file-type',
  '@zxcvbn-ts/language-common',
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage', // imported on first use
]);

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const externals: esbuild.Plugin = {
  name: 'externals',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('node:') || EXTERNAL.has(packageName(args.path)) ? { path: args.path, external: true } : undefined,
    );
  },
};

/** Builds into `outdir` (inside the project, so that the external packages resolve). */
export async function build(outdir = join(ROOT, 'dist')): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [
      { in: 'src/main.ts', out: 'main' },
      // Next to the bundle's chunks: src/auth/hash-pool.ts finds it as ./hash-worker.js.
      { in: 'src/auth/hash-worker.ts', out: 'hash-worker' },
      ...['migrate', 'outbox', 'accounts', 'seed', 'backup', 'restore'].map((name) => ({ in: `src/cli/${name}.ts`, out: `cli/${name}` })),
    ],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    metafile: true,
    plugins: [externals],
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  // The hashing pool's code must sit in dist/ itself, where the worker file is.
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if ('src/auth/hash-pool.ts' in output.inputs && dirname(resolve(ROOT, file)) !== outdir) {
      throw new Error(`build: the hashing pool ended up in ${relative(ROOT, file)}, away from hash-worker.js`);
    }
  }
  // The web client beside the service (src/config/http.ts looks for it there), in the same build directory.
  await buildWeb(join(outdir, 'web'));
}

/** Builds kept besides those in use: the newest few, something to go back to. */
export const KEEP_BUILDS = 3;

/**
 * `npm run build` (and so `npm start`): builds into a directory of its own, then points `dist`
 * at it by renaming a new symbolic link over the old one, which is atomic. An instance already
 * running keeps reading its own build's files (Node resolves `dist/main.js` to the real path,
 * so the hashing threads it starts later come from the same build), and several `npm start`
 * in one folder at once each build apart and start from a complete build. Then builds beyond
 * the newest few go, whatever their age, except those in use: `dist`'s, one still being
 * written, one a running instance was started from (src/builds-in-use.ts).
 */
export async function buildAndSwitch(base = ROOT): Promise<string> {
  // Each build in <base>/dist-builds/; <base>/dist links to the current one.
  const builds = join(base, BUILDS_DIR);
  const current = join(base, 'dist');
  mkdirSync(builds, { recursive: true });
  const dir = join(builds, `${Date.now()}-${process.pid}`);
  // Until the instance started from it marks it in turn, kept as the newest and as dist's.
  const endUse = markBuildInUse(dir);
  try {
    await build(dir);
    const link = join(base, `.dist-${process.pid}.tmp`);
    rmSync(link, { force: true });
    symlinkSync(relative(base, dir), link);
    // A dist/ directory from before builds were kept apart cannot be renamed over.
    if (lstatSafe(current)?.isDirectory()) rmSync(current, { recursive: true, force: true });
    renameSync(link, current);
    pruneBuilds(builds, current);
  } finally {
    endUse();
  }
  return dir;
}

function lstatSafe(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Removes the builds of `builds` beyond the newest KEEP_BUILDS, but for `link`'s and those in use. */
export function pruneBuilds(builds: string, link: string): void {
  const current = lstatSafe(link)?.isSymbolicLink() ? resolve(dirname(link), readlinkSync(link)) : undefined;
  const inUse = buildsInUse(builds);
  // Names start with the build's time, so they sort oldest first; the markers' folder starts with a dot.
  const names = readdirSync(builds)
    .filter((name) => !name.startsWith('.'))
    .sort();
  for (const name of names.slice(0, -KEEP_BUILDS)) {
    const dir = join(builds, name);
    if (dir === current || inUse.has(name)) continue;
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run as a script (npm run build), not imported (the production-build test).
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  if (process.argv[2]) await build(resolve(process.argv[2]));
  else await buildAndSwitch();
}
