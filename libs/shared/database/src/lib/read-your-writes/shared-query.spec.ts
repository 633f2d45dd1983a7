import { SharedQuery } from './shared-query';

/** A query whose answers the spec hands out one at a time. */
function controlledQuery() {
  const pending: Array<{
    resolve: (value: number) => void;
    reject: (error: Error) => void;
  }> = [];
  const query = () =>
    new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
  const answer = async (value: number) => {
    pending.shift()?.resolve(value);
    // Let the settled query's callbacks (and a query queued after it) run.
    for (let n = 0; n < 5; n++) await Promise.resolve();
  };
  return { query, pending, answer };
}

describe('SharedQuery', () => {
  it('answers fresh() from a query begun after the call: callers meanwhile share the next one', async () => {
    const { query, pending, answer } = controlledQuery();
    const shared = new SharedQuery(query);
    const first = shared.fresh();
    const second = shared.fresh();
    const third = shared.fresh();
    expect(pending).toHaveLength(1);
    await answer(1);
    await expect(first).resolves.toBe(1);
    expect(pending).toHaveLength(1);
    await answer(2);
    await expect(second).resolves.toBe(2);
    await expect(third).resolves.toBe(2);
  });

  it('answers recent() from the last answer while it is young enough, else from one query for all', async () => {
    const { query, pending, answer } = controlledQuery();
    let now = 0;
    const shared = new SharedQuery(query, () => now);
    const a = shared.recent(5);
    const b = shared.recent(5);
    expect(pending).toHaveLength(1);
    await answer(7);
    await expect(Promise.all([a, b])).resolves.toEqual([7, 7]);
    now = 4;
    await expect(shared.recent(5)).resolves.toBe(7);
    expect(pending).toHaveLength(0);
    now = 5;
    const c = shared.recent(5);
    expect(pending).toHaveLength(1);
    await answer(9);
    await expect(c).resolves.toBe(9);
    expect(shared.last).toEqual({ value: 9, at: 5 });
  });

  it('keeps no failed answer: the next call asks again', async () => {
    const { query, pending } = controlledQuery();
    const shared = new SharedQuery(query);
    const failed = shared.recent(5);
    pending.shift()?.reject(new Error('down'));
    await expect(failed).rejects.toThrow('down');
    expect(shared.last).toBeUndefined();
    const again = shared.recent(5);
    expect(pending).toHaveLength(1);
    pending.shift()?.reject(new Error('still down'));
    await expect(again).rejects.toThrow('still down');
  });
});
