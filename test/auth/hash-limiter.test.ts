import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Limiter } from '../../src/auth/hash-limiter.ts';

describe('hash limiter', () => {
  test('runs at most N tasks at once, the rest in order, and passes results and errors through', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (n: number) => limiter.run(async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      order.push(n);
      if (n === 3) throw new Error('boom');
      return n * 10;
    });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(task));
    assert.equal(most, 2);
    assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected')), [10, 20, 'rejected', 40, 50, 60]);
    assert.deepEqual(order.slice(0, 2).sort(), [1, 2]);
    // A failed task frees its place: everything queued still ran.
    assert.equal(order.length, 6);
  });
});
