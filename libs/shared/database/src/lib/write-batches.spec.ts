import { WriteBatches } from './write-batches';

/** A write whose batches the spec finishes by hand. */
function heldWrites() {
  const batches: Array<{
    items: readonly number[];
    finish: (outcomes: string[]) => void;
    fail: (error: Error) => void;
  }> = [];
  const write = (items: readonly number[]) =>
    new Promise<string[]>((resolve, reject) =>
      batches.push({ items, finish: resolve, fail: reject }),
    );
  return { batches, write };
}

/** Limits that leave weight out: every item weighs 1, a batch any count. */
const BY_COUNT = { weight: Infinity, weigh: () => 1 };

/** Lets the event loop turn once, so a batch scheduled for its end is sent. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('WriteBatches', () => {
  it('sends the items of one turn as one batch and answers each its own outcome', async () => {
    const { batches, write } = heldWrites();
    const writes = new WriteBatches(write, {
      ...BY_COUNT,
      flights: 2,
      items: 64,
    });
    const answers = [1, 2, 3].map((n) => writes.add(n));
    await nextTurn();
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    batches[0]?.finish(['one', 'two', 'three']);
    await expect(Promise.all(answers)).resolves.toEqual([
      'one',
      'two',
      'three',
    ]);
  });

  it('holds what arrives while every flight is out, then sends it together', async () => {
    const { batches, write } = heldWrites();
    const writes = new WriteBatches(write, {
      ...BY_COUNT,
      flights: 1,
      items: 64,
    });
    const first = writes.add(1);
    await nextTurn();
    const later = [2, 3].map((n) => writes.add(n));
    await nextTurn();
    await nextTurn();
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    batches[0]?.finish(['a']);
    await expect(first).resolves.toBe('a');
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3]]);
    batches[1]?.finish(['b', 'c']);
    await expect(Promise.all(later)).resolves.toEqual(['b', 'c']);
  });

  it('cuts batches at the item limit, as many in flight as allowed', async () => {
    const { batches, write } = heldWrites();
    const writes = new WriteBatches(write, {
      ...BY_COUNT,
      flights: 2,
      items: 2,
    });
    const answers = [1, 2, 3, 4, 5].map((n) => writes.add(n));
    await nextTurn();
    expect(batches.map((b) => b.items)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    batches[1]?.finish(['c', 'd']);
    await expect(answers[3]).resolves.toBe('d');
    expect(batches.map((b) => b.items)).toEqual([[1, 2], [3, 4], [5]]);
    batches[0]?.finish(['a', 'b']);
    batches[2]?.finish(['e']);
    await expect(Promise.all(answers)).resolves.toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it('cuts batches at their weight, but sends an item heavier than it alone', async () => {
    const { batches, write } = heldWrites();
    const writes = new WriteBatches(write, {
      flights: 3,
      items: 64,
      weight: 10,
      weigh: (n: number) => n,
    });
    const answers = [4, 5, 2, 30, 1].map((n) => writes.add(n));
    await nextTurn();
    expect(batches.map((b) => b.items)).toEqual([[4, 5], [2], [30]]);
    for (const batch of batches.slice()) batch.finish(batch.items.map(String));
    await expect(Promise.all(answers.slice(0, 4))).resolves.toEqual([
      '4',
      '5',
      '2',
      '30',
    ]);
    expect(batches.map((b) => b.items)).toEqual([[4, 5], [2], [30], [1]]);
    batches[3]?.finish(['1']);
    await expect(answers[4]).resolves.toBe('1');
  });

  it('fails every item of a failed batch with its error, and goes on with the next', async () => {
    const { batches, write } = heldWrites();
    const writes = new WriteBatches(write, {
      ...BY_COUNT,
      flights: 1,
      items: 64,
    });
    const failing = [1, 2].map((n) => writes.add(n));
    await nextTurn();
    const next = writes.add(3);
    batches[0]?.fail(new Error('connection lost'));
    for (const answer of failing)
      await expect(answer).rejects.toThrow('connection lost');
    batches[1]?.finish(['c']);
    await expect(next).resolves.toBe('c');
  });

  it('fails an item its batch left without an outcome', async () => {
    const { batches, write } = heldWrites();
    const writes = new WriteBatches(write, {
      ...BY_COUNT,
      flights: 1,
      items: 64,
    });
    const answers = [1, 2].map((n) => writes.add(n));
    await nextTurn();
    batches[0]?.finish(['a']);
    await expect(answers[0]).resolves.toBe('a');
    await expect(answers[1]).rejects.toThrow('fewer items');
  });
});
