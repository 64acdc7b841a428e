// Which errors mean "the database is away" (503 + Retry-After) and which are failures (500).
// The errors are made the way the drivers make them; the pool tests get the real ones.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('a refused, reset or timed-out connection is "unavailable"', () => {
  for (const error of [
    withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    withCode('ECONNRESET', 'read ECONNRESET'),
    new Error('Connection terminated unexpectedly'),
    new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') }),
    new Error('timeout exceeded when trying to connect'),
    new Error('Query read timeout'),
    new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed'),
  ]) {
    assert.equal(isDatabaseUnavailable(error), true, error.message);
  }
});

test('PostgreSQL: connection exceptions, shutdown, too many connections, our statement timeout', () => {
  for (const code of ['08006', '08001', '57P01', '57P02', '57P03', '53300'])
    assert.equal(isDatabaseUnavailable(withCode(code)), true, code);
  assert.equal(isDatabaseUnavailable(withCode('57014', 'canceling statement due to statement timeout')), true);
  assert.equal(isDatabaseUnavailable(withCode('57014', 'canceling statement due to user request')), false);
});

test('SQLite: still busy after busy_timeout', () => {
  assert.equal(isDatabaseUnavailable(withCode('SQLITE_BUSY', 'database is locked')), true);
  assert.equal(isDatabaseUnavailable(withCode('SQLITE_CONSTRAINT_UNIQUE')), false);
});

test('a query that failed on its own is not "unavailable"', () => {
  for (const error of [
    withCode('23505', 'duplicate key'),
    withCode('42601', 'syntax error'),
    new TypeError('x is undefined'),
    'a string',
    undefined,
  ]) {
    assert.equal(isDatabaseUnavailable(error), false, String(error));
  }
});
