import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { HashPool } from '../../src/auth/hash-pool.ts';
import { HASH_OPTIONS, hashPassword, verifyPassword } from '../../src/auth/passwords.ts';

describe('password hashing threads', () => {
  test('hash and verify, many at once through a pool of one thread, each answer its own', async () => {
    const pool = new HashPool(1);
    const passwords = ['alpha-password', 'bravo-password', 'charlie-password'];
    const hashes = await Promise.all(passwords.map((password) => pool.run({ op: 'hash', password, options: HASH_OPTIONS })));
    for (const hash of hashes) assert.match(String(hash), /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const checks = await Promise.all(
      passwords.flatMap((password, i) => [
        pool.run({ op: 'verify', hash: String(hashes[i]), password }),
        pool.run({ op: 'verify', hash: String(hashes[i]), password: `${password}!` }),
      ]),
    );
    assert.deepEqual(checks, [true, false, true, false, true, false]);
  });

  test('waiting jobs are served first come, first served', async () => {
    const pool = new HashPool(1);
    const stored = String(await pool.run({ op: 'hash', password: 'order-password', options: HASH_OPTIONS }));
    const finished: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        pool.run({ op: 'verify', hash: stored, password: 'order-password' }).then(() => finished.push(i)),
      ),
    );
    assert.deepEqual(finished, [0, 1, 2, 3, 4, 5]);
  });

  test('a malformed stored hash is an error for the pool and a plain "no" for verifyPassword', async () => {
    const pool = new HashPool(1);
    await assert.rejects(pool.run({ op: 'verify', hash: 'not-a-hash', password: 'x' }));
    assert.equal(await verifyPassword('not-a-hash', 'whatever-password'), false);
    // The thread is still usable afterwards.
    assert.equal(await verifyPassword(await hashPassword('still-works-1'), 'still-works-1'), true);
  });

  test('unknown accounts are checked against a dummy hash and never match', async () => {
    assert.equal(await verifyPassword(undefined, 'correct horse battery staple'), false);
  });

  test('hashing threads run at a lower scheduling priority than the event loop (Linux)', async (t) => {
    if (!existsSync('/proc/self/task')) return t.skip('no /proc on this system');
    await hashPassword('make-sure-a-thread-exists');
    // Field 19 of /proc/<pid>/task/<tid>/stat is the nice value (after the parenthesised name).
    const nices = readdirSync('/proc/self/task').map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
    // Relative to the main thread's, whatever priority the test runner itself was started with.
    const main = nices[0]!;
    assert.ok(nices.includes(Math.min(19, main + 10)), `thread nice values: ${nices.join(',')}`);
    assert.ok(main === 19 || nices.some((nice) => nice > main), 'some thread runs below the main thread');
  });
});
