import { EventEmitter } from 'node:events';

import { TransportErrorKind } from '@quitanda/kernel';
import type { Request, Response } from 'express';

import { minBodyRateMiddleware } from './min-body-rate.middleware';

/** A request with a body on its way, as far as the middleware looks. */
function fakeRequest() {
  const socket = Object.assign(new EventEmitter(), {
    bytesRead: 0,
    destroyed: false,
    destroy() {
      this.destroyed = true;
    },
  });
  const req = Object.assign(new EventEmitter(), {
    headers: { 'content-length': '100000' },
    complete: false,
    readableLength: 0,
    socket,
  });
  const res = Object.assign(new EventEmitter(), {
    headersSent: false,
    headers: {} as Record<string, string>,
    setHeader(name: string, value: string) {
      this.headers[name] = value;
    },
  });
  return { req, res, socket };
}

describe('minBodyRateMiddleware', () => {
  const rate = { bytesPerSecond: 240, graceMs: 5_000 };
  let answered: unknown[];
  const middleware = minBodyRateMiddleware(rate, (_req, _res, error) =>
    answered.push(error),
  );

  function start() {
    const request = fakeRequest();
    middleware(
      request.req as unknown as Request,
      request.res as unknown as Response,
      () => undefined,
    );
    return request;
  }

  beforeEach(() => {
    jest.useFakeTimers();
    answered = [];
  });

  afterEach(() => jest.useRealTimers());

  it('answers 408 and closes the connection once a body averages under the floor after the grace', () => {
    const { socket, res } = start();
    // 200 bytes a second: under 240.
    for (let second = 0; second < 5; second++) {
      socket.bytesRead += 200;
      jest.advanceTimersByTime(1_000);
    }
    expect(answered).toEqual([
      expect.objectContaining({ kind: TransportErrorKind.RequestTimeout }),
    ]);
    expect(res.headers['Connection']).toBe('close');
    res.emit('finish');
    expect(socket.destroyed).toBe(true);
  });

  it('leaves a body that keeps the floor, one that came whole, and one the handler has not read yet', () => {
    const steady = start();
    const whole = start();
    const unread = start();
    whole.req.complete = true;
    unread.req.readableLength = 16 * 1024;
    for (let second = 0; second < 30; second++) {
      steady.socket.bytesRead += 300;
      jest.advanceTimersByTime(1_000);
    }
    expect(answered).toEqual([]);
    // The handler reads; from then on the client's pace counts again.
    unread.req.readableLength = 0;
    jest.advanceTimersByTime(6_000);
    expect(answered).toEqual([
      expect.objectContaining({ kind: TransportErrorKind.RequestTimeout }),
    ]);
  });
});
