import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import { parsedJsonExtraBytes } from '@quitanda/http';

import { readEnvelope } from './read-envelope';

const context = { receivedAt: new Date(0), maxEventBytes: 1 << 20 };

function envelope(...items: Array<[type: string, payload: string]>): Buffer {
  return Buffer.from(
    [
      '{}',
      ...items.map(([type, payload]) => `{"type":"${type}"}\n${payload}`),
    ].join('\n'),
  );
}

describe('readEnvelope', () => {
  it("holds each kept item's bytes and what it parses into, and nothing of a skipped one", async () => {
    const event = `{"message":"m","extra":{"pad":[${'{},'.repeat(99)}{}]}}`;
    const held: number[] = [];
    const { request } = await readEnvelope(
      [
        envelope(
          ['transaction', `{"pad":[${'{},'.repeat(99)}{}]}`],
          ['event', event],
        ),
      ],
      { context, maxItems: 10, hold: (bytes) => held.push(bytes) },
    );
    expect(request.events).toHaveLength(1);
    const payload = Buffer.from(event);
    expect(held).toEqual([payload.length, parsedJsonExtraBytes(payload)]);
    expect(parsedJsonExtraBytes(payload)).toBeGreaterThan(200 * 64 - 1_000);
  });

  it('parses no item the budget refuses to hold', async () => {
    const refusal = new TransportError(
      TransportErrorKind.TooManyRequests,
      'busy',
    );
    const parse = jest.spyOn(JSON, 'parse');
    let calls = 0;
    const reading = readEnvelope([envelope(['event', '{"message":"m"}'])], {
      context,
      maxItems: 10,
      // The text fits; what it parses into does not.
      hold: () => {
        calls += 1;
        if (calls > 1) throw refusal;
      },
    });
    await expect(reading).rejects.toBe(refusal);
    expect(calls).toBe(2);
    expect(parse).not.toHaveBeenCalledWith('{"message":"m"}');
    parse.mockRestore();
  });
});
