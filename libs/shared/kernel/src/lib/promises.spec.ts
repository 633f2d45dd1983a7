import { inBackground, within } from './promises';

/** Rejections Node reported as unhandled while `run` ran (and one turn after). */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const record = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', record);
  try {
    await run();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', record);
  }
  return seen;
}

function deferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('inBackground', () => {
  it('hands a failure to onError and leaves nothing unhandled', async () => {
    const errors: unknown[] = [];
    const failure = new Error('lost');
    const unhandled = await unhandledDuring(async () => {
      inBackground(Promise.reject(failure), (error) => errors.push(error));
    });
    expect(errors).toEqual([failure]);
    expect(unhandled).toEqual([]);
  });

  it('swallows an onError that throws', async () => {
    const unhandled = await unhandledDuring(async () => {
      inBackground(Promise.reject(new Error('lost')), () => {
        throw new Error('the logger failed');
      });
    });
    expect(unhandled).toEqual([]);
  });

  it('calls nothing when the work succeeds', async () => {
    const onError = jest.fn();
    inBackground(Promise.resolve(1), onError);
    await new Promise((resolve) => setImmediate(resolve));
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('within', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it("answers with the work's value when it comes first", async () => {
    const work = deferred<number>();
    const answer = within(work.promise, 100, () => new Error('late'));
    work.resolve(7);
    await expect(answer).resolves.toBe(7);
    expect(jest.getTimerCount()).toBe(0);
  });

  it("passes the work's own failure on", async () => {
    const work = deferred<number>();
    const answer = within(work.promise, 100, () => new Error('late'));
    work.reject(new Error('refused'));
    await expect(answer).rejects.toThrow('refused');
    expect(jest.getTimerCount()).toBe(0);
  });

  it('times out, and the late failure of the loser is handled', async () => {
    const work = deferred<number>();
    const unhandled = await unhandledDuring(async () => {
      const answer = within(work.promise, 100, () => new Error('late'));
      jest.advanceTimersByTime(100);
      await expect(answer).rejects.toThrow('late');
      work.reject(new Error('failed after the deadline'));
    });
    expect(unhandled).toEqual([]);
  });
});
