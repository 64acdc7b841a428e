// `npm run build`: the production build in dist/, bundled with esbuild.
//
// Why a bundle and not tsc's one file per module: the service loads about 1,700 ES modules
// (TypeBox alone is 683 files, Kysely 257), and resolving and linking them was most of the
// start-up time (about 1 s to the first /health on a slow core; about 0.6 s bundled, see
// docs/decisions.md). Type checking stays with `tsc --noEmit` (npm run typecheck).
//
// Left out of the bundle, and loaded from node_modules as usual: native addons, packages that
// read files next to their own code, and those the service only imports on first use.
import { rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';

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
  '@zxcvbn-ts/language-common', // imported on first use
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
      ...['migrate', 'outbox', 'seed'].map((name) => ({ in: `src/cli/${name}.ts`, out: `cli/${name}` })),
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
}

// Run as a script (npm run build), not imported (the production-build test).
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const outdir = process.argv[2] ? resolve(process.argv[2]) : undefined;
  await build(outdir);
}
