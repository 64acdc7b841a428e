// The other side of `--compare <ref>`: that commit checked out in a temporary git worktree
// and built there, so that the working tree stays as it is. The worktree goes when the
// bench ends, however it ends (an error, Ctrl-C, a kill by SIGTERM).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './processes.ts';

export interface RefBuild {
  /** The checkout whose `dist/main.js` and `dist/cli/seed.js` run. */
  root: string;
  /** Short commit hash of the ref. */
  commit: string;
  remove(): void;
}

const git = (args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // Its output goes to stderr, with the bench's progress, not into the printed result.
    const child = spawn(command, args, { cwd, stdio: ['ignore', process.stderr, process.stderr] });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`\`${command} ${args.join(' ')}\` in ${cwd} failed (${signal ?? `code ${code}`})`)),
    );
  });
}

/**
 * The working tree's commit, and whether files differ from it: what its build is made of.
 * Result files do not count: a run written there does not change the next run's code.
 */
export function workingTree(): { hash: string; dirty: boolean } {
  try {
    const changes = git(['status', '--porcelain', '--', '.', ':(exclude)bench/results']);
    return { hash: git(['rev-parse', '--short', 'HEAD']), dirty: changes !== '' };
  } catch {
    return { hash: 'unknown', dirty: false };
  }
}

/** "2bcf98f", or "2bcf98f with uncommitted changes". */
export function describeWorkingTree(): string {
  const { hash, dirty } = workingTree();
  return dirty ? `${hash} with uncommitted changes` : hash;
}

/** The ref as a commit, or an error saying it is not one. */
export function resolveRef(ref: string): string {
  try {
    return git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`"${ref}" is not a commit of this repository`);
  }
}

export async function buildAtRef(ref: string, log: (message: string) => void): Promise<RefBuild> {
  const commit = resolveRef(ref);
  const parent = mkdtempSync(join(tmpdir(), 'profile-bench-compare-'));
  const root = join(parent, 'tree');
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      git(['worktree', 'remove', '--force', root]);
    } catch {
      // not added yet, or already gone: the folder and git's record of it go below
    }
    rmSync(parent, { recursive: true, force: true });
    try {
      git(['worktree', 'prune']);
    } catch {}
  };
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', remove);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    log(`checking out ${ref} (${commit.slice(0, 7)}) in ${root}`);
    git(['worktree', 'add', '--detach', root, commit]);
    const lock = (dir: string) => (existsSync(join(dir, 'package-lock.json')) ? readFileSync(join(dir, 'package-lock.json'), 'utf8') : '');
    if (lock(root) === lock(ROOT) && existsSync(join(ROOT, 'node_modules'))) {
      log("same package-lock.json: the working tree's node_modules is reused");
      symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    } else {
      log(`package-lock.json differs: npm ci in ${root}`);
      await run('npm', ['ci', '--no-audit', '--no-fund'], root);
    }
    log(`building ${commit.slice(0, 7)}`);
    await run('npm', ['run', 'build'], root);
  } catch (error) {
    remove();
    throw error;
  }
  return { root, commit: commit.slice(0, 7), remove };
}
