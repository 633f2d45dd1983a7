import { ConcurrencyLimit, ConcurrencyLimitFull } from './concurrency-limit';

/** A task that runs until released, recording how many run with it. */
function gatedTasks(limit: ConcurrencyLimit) {
  let now = 0;
  let most = 0;
  const order: number[] = [];
  const releases: Array<() => void> = [];
  const started = (n: number) =>
    limit.run(async () => {
      now += 1;
      most = Math.max(most, now);
      order.push(n);
      await new Promise<void>((resolve) => releases.push(resolve));
      now -= 1;
      if (n === 2) throw new Error('task 2 fails');
      return n;
    });
  return { started, releases, order, most: () => most };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimit', () => {
  it('runs at most max tasks at once, the rest in order, a failure freeing its slot', async () => {
    const tasks = gatedTasks(new ConcurrencyLimit(2));
    const results = [1, 2, 3, 4, 5].map((n) =>
      tasks.started(n).then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    await settle();
    expect(tasks.order).toEqual([1, 2]);
    while (tasks.releases.length > 0) {
      tasks.releases.shift()?.();
      await settle();
    }
    await expect(Promise.all(results)).resolves.toEqual([
      { value: 1 },
      { error: 'task 2 fails' },
      { value: 3 },
      { value: 4 },
      { value: 5 },
    ]);
    expect(tasks.order).toEqual([1, 2, 3, 4, 5]);
    expect(tasks.most()).toBe(2);
  });

  it('refuses a task at once when maxWaiting already wait, and takes one again when a slot frees', async () => {
    const tasks = gatedTasks(new ConcurrencyLimit(1, 2));
    const results = [1, 3, 4, 5].map((n) =>
      tasks.started(n).then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.name }),
      ),
    );
    await settle();
    // 1 runs, 3 and 4 wait, 5 is refused without waiting for any.
    await expect(results[3]).resolves.toEqual({
      error: 'ConcurrencyLimitFull',
    });
    tasks.releases.shift()?.();
    await settle();
    // 3 took the freed slot: the queue holds one, so one more may wait.
    const sixth = tasks.started(6);
    await settle();
    while (tasks.releases.length > 0) {
      tasks.releases.shift()?.();
      await settle();
    }
    await expect(sixth).resolves.toBe(6);
    await expect(Promise.all(results.slice(0, 3))).resolves.toEqual([
      { value: 1 },
      { value: 3 },
      { value: 4 },
    ]);
    expect(tasks.order).toEqual([1, 3, 4, 6]);
  });

  it('says how many waited when it refuses', async () => {
    const limit = new ConcurrencyLimit(1, 0);
    const releases: Array<() => void> = [];
    const first = limit.run(
      () => new Promise<void>((resolve) => releases.push(resolve)),
    );
    await expect(limit.run(() => Promise.resolve())).rejects.toEqual(
      new ConcurrencyLimitFull(0),
    );
    releases.forEach((release) => release());
    await first;
  });

  it('refuses a limit below one and a negative queue', () => {
    expect(() => new ConcurrencyLimit(0)).toThrow(RangeError);
    expect(() => new ConcurrencyLimit(1, -1)).toThrow(RangeError);
  });
});
