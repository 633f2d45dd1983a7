import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';

import { TransportErrorKind } from '@quitanda/kernel';

import {
  BodyBudget,
  PARSED_VALUE_BYTES,
  holdBodyBytes,
  holdParsedValues,
  holdParserBody,
  jsonValuesAtMost,
  parsedExtraBytes,
} from './body-budget';

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

  it('counts at least the values JSON parses into, from its raw bytes', () => {
    const count = (text: string) => jsonValuesAtMost(Buffer.from(text));
    // JSON.parse makes 1, 1, 3 and 8 values of these.
    expect(count('"text"')).toBe(1);
    expect(count('{}')).toBe(2);
    expect(count('[{},{}]')).toBe(5);
    expect(count('{"a":1,"b":[{},{},"x"],"c":{"d":null}}')).toBe(10);
    // A separator inside a string counts too: never fewer than parsed.
    expect(count('["a,b"]')).toBe(3);
  });

  it('weighs parsed values beyond the text that holds them', () => {
    // 301 values from 602 bytes: each value's weight, less the text.
    expect(parsedExtraBytes(301, 602)).toBe(301 * PARSED_VALUE_BYTES - 602);
    // A text that weighs more than its values: nothing beyond it.
    expect(parsedExtraBytes(1, 202)).toBe(0);
  });

  it("holds a parsed body's values beyond its text until the response closes, and refuses past the budget", () => {
    const budget = new BodyBudget(10 * PARSED_VALUE_BYTES);
    const small = request();
    holdBodyBytes(small.req, 300, budget);
    // Three values weigh less than their text: nothing more is held.
    holdParsedValues(small.req, 3, budget);
    expect(budget.usedBytes).toBe(300);
    const dense = request();
    holdBodyBytes(dense.req, 12, budget);
    // Four empty objects in 12 bytes of text weigh four values.
    holdParsedValues(dense.req, 4, budget);
    expect(budget.usedBytes).toBe(300 + 4 * PARSED_VALUE_BYTES);
    expect(() => holdParsedValues(request().req, 8, budget)).toThrow(
      expect.objectContaining({ kind: TransportErrorKind.TooManyRequests }),
    );
    expect(() => holdParsedValues(request().req, 11, budget)).toThrow(
      expect.objectContaining({ kind: TransportErrorKind.PayloadTooLarge }),
    );
    dense.res.emit('close');
    small.res.emit('close');
    expect(budget.usedBytes).toBe(0);
  });

  it('counts nothing for a request already answered', () => {
    const budget = new BodyBudget(100);
    const answered = request();
    answered.res.destroyed = true;
    holdBodyBytes(answered.req, 1_000, budget);
    expect(budget.usedBytes).toBe(0);
  });

  it("holds a parser's body as its bytes arrive (a declared length alone holds nothing), an encoded one's limit up front", () => {
    const budget = new BodyBudget(1_000);
    const declared = request({ 'content-length': '300' });
    holdParserBody(declared.req, 1_000, budget);
    // Six bytes of a declared 300, the connection left open.
    expect(budget.usedBytes).toBe(0);
    declared.req.emit('data', Buffer.alloc(6));
    expect(budget.usedBytes).toBe(6);
    const chunked = request();
    holdParserBody(chunked.req, 1_000, budget);
    chunked.req.emit('data', Buffer.alloc(100));
    expect(budget.usedBytes).toBe(106);
    holdParserBody(
      request({ 'content-length': '30', 'content-encoding': 'gzip' }).req,
      500,
      budget,
    );
    expect(budget.usedBytes).toBe(606);
    // Past the parser's limit: left to the parser, which refuses it unread.
    holdParserBody(request({ 'content-length': '5000' }).req, 1_000, budget);
    expect(budget.usedBytes).toBe(606);

    // Past the budget: the request stream fails with the 429.
    const errors: unknown[] = [];
    chunked.req.on('error', (error) => errors.push(error));
    chunked.req.emit('data', Buffer.alloc(500));
    expect(errors).toEqual([
      expect.objectContaining({ kind: TransportErrorKind.TooManyRequests }),
    ]);
    expect(budget.usedBytes).toBe(606);
    chunked.req.emit('data', Buffer.alloc(1));
    expect(errors).toHaveLength(1);
  });

  it('fails no one once the body has no reader: the refusal of a stream nobody reads, or one answered, throws nothing', () => {
    const budget = new BodyBudget(100);
    const holder = request();
    holdBodyBytes(holder.req, 100, budget);
    // The parser gave up (its listeners gone); bytes keep coming.
    const unread = request();
    holdParserBody(unread.req, 1_000, budget);
    expect(() => unread.req.emit('data', Buffer.alloc(10))).not.toThrow();
    // Answered (a 413 already sent): the rest is drained, held by nothing.
    const answered = request();
    holdParserBody(answered.req, 1_000, budget);
    Object.assign(answered.res, { writableEnded: true });
    holder.res.emit('close');
    answered.req.emit('data', Buffer.alloc(50));
    expect(budget.usedBytes).toBe(0);
  });
});
