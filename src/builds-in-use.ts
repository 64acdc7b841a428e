// Which builds of dist-builds/ are in use, so that removing old builds never removes one under
// a process that runs from it, whatever its age: an instance started from it (its hashing
// threads load their code from it later), or a build still being written. Each user leaves a
// marker, dist-builds/.in-use/<build>.<pid>, and removes it when it exits. A marker left by a
// process that died without removing it (killed, crashed) is known by its pid no longer being
// alive (`process.kill(pid, 0)`) and is removed at the next pruning. A pid the system has since
// given to another process keeps that build until the process ends: a build kept too long,
// never one removed in use.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const BUILDS_DIR = 'dist-builds';
const MARKERS_DIR = '.in-use';

/** Marks `buildDir` (a directory in dist-builds/) as used by this process; returns what ends the use. */
export function markBuildInUse(buildDir: string): () => void {
  const markers = join(dirname(buildDir), MARKERS_DIR);
  mkdirSync(markers, { recursive: true });
  const marker = join(markers, `${basename(buildDir)}.${process.pid}`);
  writeFileSync(marker, '');
  return () => rmSync(marker, { force: true });
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The names of the builds in `buildsDir` that a live process uses; the markers of dead ones are removed. */
export function buildsInUse(buildsDir: string): Set<string> {
  const markers = join(buildsDir, MARKERS_DIR);
  const used = new Set<string>();
  let names: string[];
  try {
    names = readdirSync(markers);
  } catch {
    return used;
  }
  for (const name of names) {
    const dot = name.lastIndexOf('.');
    if (isAlive(Number(name.slice(dot + 1)))) used.add(name.slice(0, dot));
    else rmSync(join(markers, name), { force: true });
  }
  return used;
}

/**
 * For the service started from a build (`dist/main.js`, which Node resolves to
 * dist-builds/<build>/main.js): marks that build as in use until the process exits. Nothing
 * when it runs from anywhere else (`npm run dev`, a build made into a folder of its own), or
 * when the marker cannot be written (a read-only deployment, which builds once and prunes
 * nothing): starting matters more than pruning.
 */
export function holdOwnBuild(entryFile: string): void {
  const buildDir = dirname(entryFile);
  if (basename(dirname(buildDir)) !== BUILDS_DIR) return;
  try {
    process.on('exit', markBuildInUse(buildDir));
  } catch {
    // Not writable: see above.
  }
}
