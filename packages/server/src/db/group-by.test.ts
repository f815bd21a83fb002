import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { groupBy } from './group-by.js';

describe('groupBy', () => {
  it('groups in order of first appearance, keeping the order within each group', () => {
    const rows = [
      { app: 2, no: 'a' },
      { app: 1, no: 'b' },
      { app: 2, no: 'c' },
    ];
    assert.deepEqual(
      [
        ...groupBy(
          rows,
          (r) => r.app,
          (r) => r.no,
        ),
      ],
      [
        [2, ['a', 'c']],
        [1, ['b']],
      ],
    );
    assert.deepEqual(
      [...groupBy(rows, (r) => r.app)].map(([k, g]) => [k, g.length]),
      [
        [2, 2],
        [1, 1],
      ],
    );
  });

  it('answers an empty map for no items', () => {
    assert.equal(groupBy([], (x: number) => x).size, 0);
  });
});
