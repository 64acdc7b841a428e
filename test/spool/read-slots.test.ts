// ReadSlots: at most N at once, the rest in the order they came, a slot given back on failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReadSlots } from '../../src/spool/read-slots.ts';

test('at most two run at once; the others start in the order they came, as slots come back', async () => {
  const slots = new ReadSlots(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const releases: Array<() => void> = [];
  const runs = Array.from({ length: 5 }, (_, i) =>
    slots.run(async () => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running--;
      return i;
    }),
  );
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  await settle();
  assert.deepEqual(started, [0, 1]);
  while (started.length < 5 || releases.length > 0) {
    releases.shift()?.();
    await settle();
  }
  assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3, 4]);
  assert.deepEqual(started, [0, 1, 2, 3, 4]);
  assert.equal(most, 2);
});

test('a failing run gives its slot back', async () => {
  const slots = new ReadSlots(1);
  await assert.rejects(
    slots.run(async () => {
      throw new Error('broken');
    }),
    /broken/,
  );
  assert.equal(await slots.run(async () => 'next'), 'next');
});
