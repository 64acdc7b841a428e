// The loop every background pass runs in: never two passes at once, a wake during a pass
// runs one more after it, and stop() waits for the pass under way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PollingLoop } from '../src/polling-loop.ts';

/** A pass that runs until released, counting its runs and the most ever running at once. */
function gatedPass() {
  const state = { runs: 0, running: 0, most: 0, release: () => {} };
  const pass = async () => {
    state.runs += 1;
    state.running += 1;
    state.most = Math.max(state.most, state.running);
    await new Promise<void>((resolve) => {
      state.release = resolve;
    });
    state.running -= 1;
  };
  return { state, pass };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('wakes during a pass run one more pass after it, never two at once', async () => {
  const { state, pass } = gatedPass();
  const loop = new PollingLoop(pass, 3_600_000);
  loop.start();
  assert.equal(state.runs, 1);
  loop.wake();
  loop.wake();
  assert.equal(state.runs, 1, 'no second pass while the first runs');
  state.release();
  await settle();
  assert.equal(state.runs, 2, 'the wakes ran one more pass');
  state.release();
  await settle();
  assert.equal(state.runs, 2, 'and only one');
  assert.equal(state.most, 1);
  await loop.stop();
});

test('stop() waits for the pass under way, and nothing runs after it', async () => {
  const { state, pass } = gatedPass();
  const loop = new PollingLoop(pass, 3_600_000);
  loop.start();
  let stopped = false;
  const stopping = loop.stop().then(() => {
    stopped = true;
  });
  await settle();
  assert.equal(stopped, false, 'stop waits for the pass');
  assert.equal(loop.stopped, true);
  state.release();
  await stopping;
  loop.wake();
  assert.equal(state.runs, 1);
});

test('a stopped loop starts again', async () => {
  let runs = 0;
  const loop = new PollingLoop(async () => {
    runs += 1;
  }, 3_600_000);
  loop.wake();
  assert.equal(runs, 0, 'not started: a wake runs nothing');
  loop.start();
  await loop.stop();
  loop.start();
  await loop.stop();
  assert.equal(runs, 2);
});
