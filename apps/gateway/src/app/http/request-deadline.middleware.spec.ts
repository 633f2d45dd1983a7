import { EventEmitter } from 'node:events';

import { pauseDeadline, restartDeadline } from '@quitanda/http';
import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import type { NextFunction, Request, Response } from 'express';

import { requestDeadlineMiddleware } from './request-deadline.middleware';

const DEADLINE_MS = 1_000;

function setUp() {
  const req = Object.assign(new EventEmitter(), { complete: true });
  const res = Object.assign(new EventEmitter(), { headersSent: false });
  const errors: unknown[] = [];
  let passedOn = false;
  requestDeadlineMiddleware(DEADLINE_MS, (_req, _res, error) =>
    errors.push(error),
  )(
    req as unknown as Request,
    res as unknown as Response,
    (() => {
      passedOn = true;
    }) as NextFunction,
  );
  return { req, res, errors, passedOn };
}

describe('requestDeadlineMiddleware', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('passes the request on, then answers 503 with Retry-After once the deadline passes', () => {
    const { errors, passedOn } = setUp();
    expect(passedOn).toBe(true);
    jest.advanceTimersByTime(DEADLINE_MS - 1);
    expect(errors).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TransportError);
    expect(errors[0]).toMatchObject({
      kind: TransportErrorKind.ServiceUnavailable,
      retryAfterSeconds: 5,
    });
  });

  it('stands still while paused and starts again in full on restart', () => {
    const { req, errors } = setUp();
    jest.advanceTimersByTime(DEADLINE_MS / 2);
    pauseDeadline(req as unknown as Request);
    jest.advanceTimersByTime(DEADLINE_MS * 10);
    expect(errors).toEqual([]);
    restartDeadline(req as unknown as Request);
    jest.advanceTimersByTime(DEADLINE_MS - 1);
    expect(errors).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(errors).toHaveLength(1);
  });

  it('starts the clock once the body has arrived', () => {
    const req = Object.assign(new EventEmitter(), { complete: false });
    const res = new EventEmitter();
    const errors: unknown[] = [];
    requestDeadlineMiddleware(DEADLINE_MS, (_q, _s, e) => errors.push(e))(
      req as unknown as Request,
      Object.assign(res, { headersSent: false }) as unknown as Response,
      (() => undefined) as NextFunction,
    );
    jest.advanceTimersByTime(DEADLINE_MS * 3);
    expect(errors).toEqual([]);
    req.emit('end');
    jest.advanceTimersByTime(DEADLINE_MS);
    expect(errors).toHaveLength(1);
  });

  it('leaves a response that is already streaming alone, and stops with the response', () => {
    const streaming = setUp();
    streaming.res.headersSent = true;
    jest.advanceTimersByTime(DEADLINE_MS * 2);
    expect(streaming.errors).toEqual([]);
    const done = setUp();
    done.res.emit('close');
    jest.advanceTimersByTime(DEADLINE_MS * 2);
    expect(done.errors).toEqual([]);
  });

  it('arms nothing once the response is over: a late restart or body end', () => {
    const restarted = setUp();
    restarted.res.emit('close');
    restartDeadline(restarted.req as unknown as Request);
    jest.advanceTimersByTime(DEADLINE_MS * 2);
    expect(restarted.errors).toEqual([]);

    const req = Object.assign(new EventEmitter(), { complete: false });
    const res = Object.assign(new EventEmitter(), { headersSent: false });
    const errors: unknown[] = [];
    requestDeadlineMiddleware(DEADLINE_MS, (_q, _s, e) => errors.push(e))(
      req as unknown as Request,
      res as unknown as Response,
      (() => undefined) as NextFunction,
    );
    res.emit('close');
    req.emit('end');
    jest.advanceTimersByTime(DEADLINE_MS * 2);
    expect(errors).toEqual([]);
  });
});
