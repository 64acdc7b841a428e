// Property-based fuzzing of every operation in the service's own /openapi.json, on whichever
// database the suite runs (TEST_DATABASE_URL). For each operation: fixed requests (own,
// foreign and junk ids, bad credentials, the known hostile bodies), then random ones from
// fast-check. Invariants: no 5xx, every response matches its declared schema (or the
// API's error shape), bad credentials are 401, an id that is not the caller's is 404.
// Knobs and replay: fuzz-settings.ts.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { FuzzRunner } from './fuzz-runner.ts';
import { fuzzSettings, operationSeed } from './fuzz-settings.ts';
import { FuzzWorld } from './fuzz-world.ts';
import { listOperations, type OpenApiDocument, type Operation } from './openapi-walker.ts';
import { fixedSpecs, requestSpec } from './request-arbitraries.ts';
import { errorShapeProblems, ResponseChecker } from './response-checker.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const DATABASE = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
const settings = fuzzSettings();
/** At most this many failures of one operation are printed in full. */
const SHOWN_FAILURES = 4;

/** Messaging configured, so /auth/messaging/ can answer 201 rather than 503. */
function messagingEnv(): Record<string, string> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = join(tempDir('fuzz-messaging-'), 'messaging.pem');
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
  return { MESSAGING_PROVIDER_ID: 'layer:///providers/fuzz', MESSAGING_KEY_ID: 'layer:///keys/fuzz', MESSAGING_PRIVATE_KEY_FILE: file };
}

describe(`API fuzz on ${DATABASE}`, () => {
  let server: TestServer;
  let doc: OpenApiDocument;
  let allOperations: Operation[];
  /** The operations to fuzz (all of them, or those FUZZ_ONLY names). */
  let operations: Operation[];
  let world: FuzzWorld;
  let runner: FuzzRunner;

  before(async () => {
    server = await startTestServer(messagingEnv());
    const response = await server.request('GET', '/openapi.json');
    assert.equal(response.status, 200, response.text);
    doc = response.body;
    allOperations = listOperations(doc);
    operations = allOperations.filter((operation) => settings.only === undefined || operation.key.includes(settings.only));
    assert.ok(operations.length > 0, `no operation matches FUZZ_ONLY="${settings.only}"`);
    world = await FuzzWorld.create(server);
    runner = new FuzzRunner(world, new ResponseChecker(doc));
  });
  after(() => server?.close());

  test('every operation keeps the invariants under fixed and random requests', async (t) => {
    const started = Date.now();
    const randomDeadline = started + settings.seconds * 1000;
    t.diagnostic(
      `seed ${settings.seed} (replay: FUZZ_SEED=${settings.seed}), ${settings.runs} random requests per operation within ${settings.seconds} s`,
    );

    for (const [index, operation] of operations.entries()) {
      await t.test(operation.key, async () => {
        const seed = operationSeed(settings.seed, operation.key);
        const failures: string[] = [];
        for (const [number, spec] of fixedSpecs(operation, seed).entries()) {
          try {
            await runner.runCase(operation, spec);
          } catch (error) {
            failures.push(`fixed request ${number}: ${(error as Error).message}`);
          }
        }
        const budget = (randomDeadline - Date.now()) / (operations.length - index);
        if (settings.runs > 0 && budget >= 100) {
          const failure = await fuzzRandomly(operation, seed, budget);
          if (failure) failures.push(failure);
        }
        if (failures.length > 0) {
          const hidden = failures.length > SHOWN_FAILURES ? `\n(${failures.length - SHOWN_FAILURES} more failures not shown)` : '';
          assert.fail(
            `${operation.key} on ${DATABASE}, seed ${settings.seed}:\n${failures.slice(0, SHOWN_FAILURES).join('\n\n')}${hidden}`,
          );
        }
      });
    }

    const missed = operations.filter((operation) => !runner.figures.covered.has(operation.key)).map((operation) => operation.key);
    report(t, started);
    assert.deepEqual(missed, [], 'operations never exercised');
  });

  test('a method an existing path does not declare is 405 with Allow', async () => {
    const byPath = Map.groupBy(allOperations, (operation) => operation.path);
    const problems: string[] = [];
    for (const [path, declared] of byPath) {
      const methods = declared.map((operation) => operation.method);
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((name) => !methods.includes(name))) {
        const operation: Operation = { ...declared[0]!, key: `${method} ${path}`, method, requestBody: undefined, responses: new Map() };
        const request = runner.resolve(operation, {
          ids: ownIds(operation),
          auth: { kind: 'caller', style: 0 },
          body: { kind: 'none' },
          slash: true,
          headers: {},
          query: '',
        });
        // "/account/emails/actions/" is also "/account/emails/{id}/" with a junk id: 404 there.
        if (allOperations.some((other) => other.method === method && templateMatches(other.path, request.path))) continue;
        const response = await fetch(server.url + request.path, { method, headers: request.headers });
        const observed = { status: response.status, headers: response.headers, text: await response.text() };
        const allow = (observed.headers.get('allow') ?? '').split(',').map((name) => name.trim());
        if (observed.status !== 405) problems.push(`${method} ${request.path}: ${observed.status}, not 405`);
        else if (!methods.every((name) => allow.includes(name)))
          problems.push(`${method} ${request.path}: Allow "${allow.join(', ')}" lacks some of ${methods.join(', ')}`);
        problems.push(...errorShapeProblems(observed).map((problem) => `${method} ${request.path}: ${problem}`));
      }
    }
    assert.deepEqual(problems, []);
  });

  /** fast-check's random requests; the failure's message (seed, replay path, shrunk request and response), if any. */
  async function fuzzRandomly(operation: Operation, seed: number, budget: number): Promise<string | undefined> {
    try {
      await fc.assert(
        fc.asyncProperty(requestSpec(operation), (spec) => runner.runCase(operation, spec)),
        {
          seed,
          numRuns: settings.runs,
          path: settings.path,
          interruptAfterTimeLimit: budget,
          markInterruptAsFailure: false,
        },
      );
      return undefined;
    } catch (error) {
      const message = (error as Error).message;
      if (/interrupted after 0 tests/.test(message)) return undefined;
      const path = /path: "([^"]*)"/.exec(message)?.[1] ?? '';
      const shrinks = /Shrunk (\d+) time/.exec(message)?.[1] ?? '0';
      const last = runner.lastFailure;
      const replay = `FUZZ_SEED=${settings.seed} FUZZ_ONLY='${operation.key}' FUZZ_PATH='${path}'`;
      return [
        `random request (fast-check seed ${seed}, path "${path}", shrunk ${shrinks} times; replay: ${replay}):`,
        last ? last.problems.join('; ') : message,
        (((error as Error).cause as Error | undefined)?.message ?? message).split('\n').slice(1).join('\n'),
      ].join('\n');
    }
  }

  function report(t: TestContext, started: number): void {
    const figures = runner.figures;
    const statuses = [...figures.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    t.diagnostic(`fuzz figures on ${DATABASE} (seed ${settings.seed}):`);
    t.diagnostic(`  operations covered: ${figures.covered.size}/${operations.length}`);
    t.diagnostic(`  requests sent: ${figures.requests} (+ ${world.fixtureRequests} fixture requests)`);
    t.diagnostic(`  5xx seen: ${figures.fiveXx}`);
    t.diagnostic(`  schema mismatches: ${figures.schemaMismatches}`);
    t.diagnostic(`  foreign or junk id not 404: ${figures.idViolations}`);
    t.diagnostic(`  statuses: ${statuses}`);
    t.diagnostic(`  wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (process.env.FUZZ_VERBOSE) {
      for (const [key, seen] of figures.byOperation) {
        t.diagnostic(
          `  ${key}: ${[...seen]
            .sort(([a], [b]) => a - b)
            .map(([status, count]) => `${status}×${count}`)
            .join(' ')}`,
        );
      }
    }
  }
});

function templateMatches(template: string, path: string): boolean {
  return new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
}

function ownIds(operation: Operation) {
  return Object.fromEntries(operation.pathParams.map((name) => [name, { kind: 'own' as const, pick: 0 }]));
}
