// Who gets what from every personal-data endpoint (docs/app-data.md, docs/sharing.md, and docs/emergency-links.md's owner-only
// emergency links), as a table: each row an
// endpoint (method × path, inside the public and the private profile for what lies in a
// profile), each cell that row asked by one caller — the owner, a writer, a reader, a reader
// without private access, a pending invitee, a revoked accessor, a stranger, no one — with the
// status the docs give, the body of an allowed answer (its id and shape; lists hold exactly
// what the caller may see), the 403's sentence, and, for a refused write, that the owner's data
// is as it was. Each cell is a test of its own, named after its method, path and caller.
//
// Reads run first, on the shared tree; then the writes, each on objects made for it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { onPostgres } from '../helpers/database.ts';
import { startTestServer } from '../helpers/server.ts';
import { statusOf, type Answer, type Cell, type Outcome, type Prepared, type Row, type World } from './access-cells.ts';
import { appUserLevelRows, lastReadRows } from './access-rows-app-user.ts';
import { emergencyLinkRows } from './access-rows-emergency-links.ts';
import { profileTreeRows } from './access-rows-profiles.ts';
import { createCallers, makeTree, ROLES, shareTree, type Role } from './sharing-fixtures.ts';

const rows: Row[] = [...appUserLevelRows(), ...profileTreeRows(), ...emergencyLinkRows(), ...lastReadRows()];
const ordered = [...rows.filter((row) => row.method === 'GET'), ...rows.filter((row) => row.method !== 'GET')];

async function send(world: World, method: string, prepared: Prepared, token: string | undefined): Promise<Answer> {
  const headers: Record<string, string> = {};
  let body: string | FormData | undefined;
  if (prepared.form) {
    body = prepared.form;
  } else if (prepared.body !== undefined) {
    body = JSON.stringify(prepared.body);
    headers['content-type'] = 'application/json';
  }
  if (token) headers.authorization = `Token ${token}`;
  const response = await fetch(world.server.url + prepared.path, { method, headers, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  const text = isJson ? bytes.toString('utf8') : `<${bytes.length} bytes>`;
  return { status: response.status, headers: response.headers, text, body: isJson && text ? JSON.parse(text) : undefined, bytes };
}

/** What the owner reads at `path`: a refused write must leave it as it was. */
async function ownerReads(world: World, cell: Cell, path: string): Promise<string> {
  const response = await world.server.request('GET', path, { token: cell.owner.token });
  return `${response.status} ${response.text}`;
}

const REASONS = { 'read-only': /read-only/, 'owner-only': /only the owner/i };

function assertRefusal(answer: Answer, outcome: Outcome, label: string): void {
  if (outcome === 401) {
    assert.equal(typeof answer.body?.detail, 'string', `${label}: the 401's detail`);
    assert.equal(answer.headers.get('www-authenticate'), 'Token', `${label}: WWW-Authenticate`);
  } else if (outcome === 404) {
    assert.deepEqual(answer.body, { detail: 'Not found.' }, `${label}: the 404's body`);
  } else if (outcome === 400) {
    assert.ok(Array.isArray(answer.body?.non_field_errors), `${label}: the 400's non_field_errors`);
  } else if (outcome === 'read-only' || outcome === 'owner-only') {
    const detail = answer.body?.detail;
    assert.match(detail, /^[A-Z].*\.$/, `${label}: the 403's detail is a sentence`);
    assert.match(detail, REASONS[outcome], `${label}: the 403 says why (${outcome})`);
  }
}

async function runCell(world: World, row: Row, role: Role, outcome: Outcome): Promise<void> {
  const label = `${row.method} ${row.path} as ${role}`;
  const prepared = await row.prepare(world, role);
  const owner = prepared.owner ?? world.tree.owner;
  const cell: Cell = { world, role, owner, label };
  const token = role === 'anonymous' || prepared.withoutToken ? undefined : role === 'owner' ? owner.token : world.callers[role].token;
  const before = prepared.witness === undefined ? undefined : await ownerReads(world, cell, prepared.witness);

  const answer = await send(world, row.method, prepared, token);
  assert.equal(answer.status, statusOf(outcome), `${label}: expected ${outcome}, got ${answer.status} ${answer.text.slice(0, 400)}`);

  if (answer.status < 300) {
    await prepared.check?.(answer, cell);
    return;
  }
  assertRefusal(answer, outcome, label);
  if (prepared.witness !== undefined) {
    assert.equal(await ownerReads(world, cell, prepared.witness), before, `${label}: the refused request changed nothing`);
  }
}

const cells = ordered.flatMap((row) => ROLES.flatMap((role) => (row.expect[role] === null ? [] : [{ row, role }])));

describe(`access table: ${rows.length} endpoints × ${ROLES.length} callers, ${cells.length} cells (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  let world: World;
  before(async () => {
    // More fresh profiles than the default quota allows are made under the one app user.
    const server = await startTestServer({ QUOTA_PROFILES_PER_USER: '1000' });
    const callers = await createCallers(server);
    const tree = await makeTree(server, callers.owner);
    world = { server, callers, tree, shares: await shareTree(server, tree, callers) };
  });
  after(() => world?.server.close());

  for (const { row, role } of cells) {
    const outcome = row.expect[role]!;
    test(`${row.method} ${row.path} as ${role} → ${outcome}`, () => runCell(world, row, role, outcome));
  }
});
