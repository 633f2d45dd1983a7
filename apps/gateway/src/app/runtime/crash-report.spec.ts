import type { Logger } from 'pino';

import {
  reportCrashes,
  UNCAUGHT_EXCEPTION,
  UNHANDLED_REJECTION,
} from './crash-report';

describe('reportCrashes', () => {
  const events: string[] = ['unhandledRejection', 'uncaughtException'];
  let before: Map<string, unknown[]>;
  let fatal: jest.Mock;
  let exit: jest.Mock;

  beforeEach(() => {
    jest.useFakeTimers();
    before = new Map(events.map((e) => [e, process.listeners(e as 'exit')]));
    fatal = jest.fn();
    exit = jest.fn();
    reportCrashes(() => ({ fatal }) as unknown as Logger, exit);
  });

  afterEach(() => {
    // Only the listeners this test added go.
    for (const event of events)
      for (const listener of process.listeners(event as 'exit'))
        if (!before.get(event)?.includes(listener))
          process.off(event, listener);
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  it('logs an unhandled rejection as one fatal line, then exits 1', () => {
    const reason = new Error('nobody listened');
    process.emit('unhandledRejection', reason, Promise.resolve());
    expect(fatal).toHaveBeenCalledWith({ err: reason }, UNHANDLED_REJECTION);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('logs an uncaught exception the same way, and only the first failure', () => {
    const error = new Error('thrown past every catch');
    process.emit('uncaughtException', error);
    process.emit('unhandledRejection', new Error('later'), Promise.resolve());
    expect(fatal).toHaveBeenCalledTimes(1);
    expect(fatal).toHaveBeenCalledWith({ err: error }, UNCAUGHT_EXCEPTION);
    expect(exit).toHaveBeenCalledTimes(1);
  });
});
