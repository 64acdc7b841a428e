// A profile detail's body assembled from a kept body's ranges and new bytes (detail-layout.ts):
// the bytes it joins, and the ranges it copies them in.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Assembly } from '../../src/app-data/views/detail-layout.ts';

const kept = Buffer.from('{"topics":[{"items":[1,2,3]},{"items":[4]}]}');
const at = (text: string) => kept.indexOf(text);
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

describe('detail assembly', () => {
  test('ranges of the kept body that follow each other, and its own punctuation between them, are one range', () => {
    const out = new Assembly();
    out.add(kept, 0, at('1') + 1);
    out.punctuation(COMMA);
    out.add(kept, at('2'), at('2') + 1);
    out.punctuation(COMMA);
    out.add(kept, at('3'), at('3') + 1);
    out.punctuation(CLOSE);
    out.punctuation(COMMA);
    out.add(kept, at('{"items":[4]}'), kept.length - 2);
    out.punctuation(CLOSE);
    assert.equal(out.join().toString(), kept.toString());
    assert.equal(out.length, kept.length);
    assert.equal(out.pieces, 1);
  });

  test('new bytes break the range; punctuation the last range does not go on with is added as itself', () => {
    const out = new Assembly();
    out.add(kept, 0, at('1'));
    out.add(Buffer.from('"new"'));
    out.punctuation(COMMA);
    out.add(kept, at('2'), at('2') + 1);
    // The kept body goes on with `,3`, not `]}`: the item 3 is left out.
    out.punctuation(CLOSE);
    out.punctuation(CLOSE);
    assert.equal(out.join().toString(), '{"topics":[{"items":["new",2]}]}');
    assert.equal(out.length, out.join().length);
    assert.equal(out.pieces, 6);
  });

  test('a range of another buffer, or one that does not start where the last ended, is a piece of its own', () => {
    const out = new Assembly();
    out.add(kept, 0, 5);
    out.add(Buffer.from(kept), 5, 10);
    out.add(kept, 11, 12);
    assert.equal(out.join().toString(), kept.subarray(0, 10).toString() + kept.subarray(11, 12).toString());
    assert.equal(out.pieces, 3);
  });
});
