import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';

import { TransportErrorKind } from '@quitanda/kernel';

import { BodyBudget, holdBodyBytes, holdParserBody } from './body-budget';

/** A request with Express's `res`, both only as far as the budget looks. */
function request(headers: Record<string, string> = {}) {
  const res = Object.assign(new EventEmitter(), { destroyed: false });
  const req = Object.assign(new EventEmitter(), { headers, res });
  return { req: req as unknown as IncomingMessage, res };
}

describe('body budget', () => {
  it('holds what each request takes until its response closes', () => {
    const budget = new BodyBudget(100);
    const first = request();
    const second = request();
    holdBodyBytes(first.req, 40, budget);
    holdBodyBytes(first.req, 20, budget);
    holdBodyBytes(second.req, 40, budget);
    expect(budget.usedBytes).toBe(100);
    first.res.emit('close');
    expect(budget.usedBytes).toBe(40);
    second.res.emit('close');
    expect(budget.usedBytes).toBe(0);
  });

  it('refuses with 429 and Retry-After while others hold it, 413 past what it could ever hold', () => {
    const budget = new BodyBudget(100);
    const holder = request();
    holdBodyBytes(holder.req, 90, budget);
    const refused = (() => {
      try {
        holdBodyBytes(request().req, 20, budget);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toMatchObject({
      kind: TransportErrorKind.TooManyRequests,
      retryAfterSeconds: 1,
    });
    expect(budget.usedBytes).toBe(90);
    holder.res.emit('close');
    expect(() => holdBodyBytes(request().req, 101, budget)).toThrow(
      expect.objectContaining({ kind: TransportErrorKind.PayloadTooLarge }),
    );
    expect(budget.usedBytes).toBe(0);
  });

  it('counts nothing for a request already answered', () => {
    const budget = new BodyBudget(100);
    const answered = request();
    answered.res.destroyed = true;
    holdBodyBytes(answered.req, 1_000, budget);
    expect(budget.usedBytes).toBe(0);
  });

  it('takes up front what a parser may buffer: the declared length, else its limit', () => {
    const budget = new BodyBudget(10_000);
    holdParserBody(request({ 'content-length': '300' }).req, 1_000, budget);
    expect(budget.usedBytes).toBe(300);
    holdParserBody(request().req, 1_000, budget);
    expect(budget.usedBytes).toBe(1_300);
    holdParserBody(
      request({ 'content-length': '30', 'content-encoding': 'gzip' }).req,
      1_000,
      budget,
    );
    expect(budget.usedBytes).toBe(2_300);
    // Past the parser's limit: left to the parser, which refuses it unread.
    holdParserBody(request({ 'content-length': '5000' }).req, 1_000, budget);
    expect(budget.usedBytes).toBe(2_300);
  });
});
