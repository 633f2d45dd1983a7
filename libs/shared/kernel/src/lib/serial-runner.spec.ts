import { SerialRunner } from './serial-runner';

describe('SerialRunner', () => {
  /** A job whose runs finish when the test says so. */
  function controlledJob() {
    const finishers: Array<(error?: Error) => void> = [];
    const job = jest.fn(
      () =>
        new Promise<void>((resolve, reject) =>
          finishers.push((error) => (error ? reject(error) : resolve())),
        ),
    );
    return { job, finish: (error?: Error) => finishers.shift()?.(error) };
  }

  it('runs once at a time, and once more for kicks during a run', async () => {
    const { job, finish } = controlledJob();
    const runner = new SerialRunner(job, jest.fn());
    runner.kick();
    runner.kick();
    runner.kick();
    expect(job).toHaveBeenCalledTimes(1);
    finish();
    await new Promise(setImmediate);
    expect(job).toHaveBeenCalledTimes(2);
    finish();
    await runner.stop();
    expect(job).toHaveBeenCalledTimes(2);
  });

  it('hands a failed run to onError and keeps running later kicks', async () => {
    const { job, finish } = controlledJob();
    const onError = jest.fn();
    const runner = new SerialRunner(job, onError);
    runner.kick();
    finish(new Error('smtp down'));
    await new Promise(setImmediate);
    expect(onError).toHaveBeenCalledWith(new Error('smtp down'));
    runner.kick();
    expect(job).toHaveBeenCalledTimes(2);
    finish();
    await runner.stop();
  });

  it('takes no kick once stopped, and stop waits for the run in progress', async () => {
    const { job, finish } = controlledJob();
    const runner = new SerialRunner(job, jest.fn());
    runner.kick();
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    runner.kick();
    await new Promise(setImmediate);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(job).toHaveBeenCalledTimes(1);
  });
});
