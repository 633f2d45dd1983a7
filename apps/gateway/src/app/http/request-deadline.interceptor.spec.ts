import { EventEmitter } from 'node:events';

import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { pauseDeadline, restartDeadline } from '@quitanda/http';
import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import { NEVER } from 'rxjs';

import type { GatewayConfig } from '../config/gateway-config';
import { RequestDeadlineInterceptor } from './request-deadline.interceptor';

const DEADLINE_MS = 1_000;

function setUp() {
  const req = Object.assign(new EventEmitter(), { complete: true });
  const res = { headersSent: false };
  const context = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
  const never: CallHandler = { handle: () => NEVER };
  const interceptor = new RequestDeadlineInterceptor({
    dbTimeoutMs: DEADLINE_MS,
  } as GatewayConfig);
  const errors: unknown[] = [];
  interceptor
    .intercept(context, never)
    .subscribe({ error: (error: unknown) => errors.push(error) });
  return { req, res, errors };
}

describe('RequestDeadlineInterceptor', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers 503 with Retry-After once the deadline passes', () => {
    const { errors } = setUp();
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
    pauseDeadline(req);
    jest.advanceTimersByTime(DEADLINE_MS * 10);
    expect(errors).toEqual([]);
    restartDeadline(req);
    jest.advanceTimersByTime(DEADLINE_MS - 1);
    expect(errors).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(errors).toHaveLength(1);
  });

  it('leaves a response that is already streaming alone', () => {
    const { res, errors } = setUp();
    res.headersSent = true;
    jest.advanceTimersByTime(DEADLINE_MS * 2);
    expect(errors).toEqual([]);
  });
});
