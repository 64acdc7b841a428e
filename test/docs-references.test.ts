// What the docs point at is there: docs/architecture.md places every folder of src/, every
// bench/results/ file a page cites exists, and bench/results/ keeps only those and the newest
// full run on each database (bench/README.md says how runs are named).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

const srcFolders = readdirSync(join(ROOT, 'src')).filter((name) => statSync(join(ROOT, 'src', name)).isDirectory());

/** The fenced blocks of a Markdown page, in order. */
function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1]!);
}

/** The pages that may cite a result: docs/, the README and the benchmark's own. */
function citingPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return [...docs, 'README.md', 'bench/README.md'];
}

function citedResults(): Set<string> {
  const cited = new Set<string>();
  for (const page of citingPages()) {
    for (const match of read(page).matchAll(/bench\/results\/([\w.-]+\.md)/g)) cited.add(match[1]!);
  }
  return cited;
}

/** A full run (every workload, not --quick, not --compare): `<date>-<commit>[-dirty]-<database>.md`. */
const FULL_RUN = /^(\d{4}-\d{2}-\d{2})(?:-[0-9a-f]{7,})?(?:-dirty)?-(sqlite|postgresql)\.md$/;

describe('what the docs point at', () => {
  test('docs/architecture.md places every folder of src/ in its layout and in the import layers', () => {
    const [layout, layers] = codeBlocks(read('docs/architecture.md'));
    const listed = new Set([...layout!.matchAll(/^ {2}([\w-]+)\/ /gm)].map((match) => match[1]!));
    const layered = new Set([...layers!.matchAll(/(?:^|\s)([\w-]+)\/(?=\s|$)/gm)].map((match) => match[1]!));
    assert.deepEqual(
      srcFolders.filter((name) => !listed.has(name)),
      [],
      'folders of src/ missing from the layout',
    );
    assert.deepEqual(
      srcFolders.filter((name) => !layered.has(name)),
      [],
      'folders of src/ missing from the layers',
    );
  });

  test('every cited benchmark result exists; bench/results/ holds those and the newest full run per database', () => {
    const cited = citedResults();
    const files = readdirSync(join(ROOT, 'bench/results'));
    assert.deepEqual(
      [...cited].filter((name) => !existsSync(join(ROOT, 'bench/results', name))),
      [],
      'cited results missing',
    );
    const newestFull = new Map<string, string>();
    for (const name of files.sort()) {
      const database = FULL_RUN.exec(name)?.[2];
      if (database) newestFull.set(database, name);
    }
    const kept = new Set([...cited, ...newestFull.values()]);
    assert.deepEqual(
      files.filter((name) => !kept.has(name)),
      [],
      'results neither cited nor the newest full run: remove them',
    );
  });
});
