import { TransportErrorKind } from '@quitanda/kernel';

import {
  EnvelopeFramer,
  EnvelopeFramingError,
  parseEnvelope,
} from './envelope';

const text = (parts: string[]) => Buffer.from(parts.join('\n'));

describe('parseEnvelope', () => {
  it('reads items with and without length, event not first, trailing newline or not', () => {
    const binary = Buffer.from([0x00, 0x0a, 0xff, 0x0a]);
    const body = Buffer.concat([
      Buffer.from('{"event_id":"abc"}\n'),
      Buffer.from(`{"type":"attachment","length":${binary.length}}\n`),
      binary,
      Buffer.from('\n{"type":"event"}\n{"message":"m"}\n'),
      Buffer.from('{"type":"session","length":2}\n{}'),
    ]);
    const envelope = parseEnvelope(body);
    expect(envelope.header).toEqual({ event_id: 'abc' });
    expect(envelope.items.map((i) => i.type)).toEqual([
      'attachment',
      'event',
      'session',
    ]);
    expect(envelope.items[0]?.payload).toEqual(binary);
    expect(envelope.items[1]?.payload.toString()).toBe('{"message":"m"}');
    expect(envelope.items[2]?.payload.toString()).toBe('{}');
  });

  it('accepts an empty header and items with empty payloads', () => {
    const envelope = parseEnvelope(
      text(['{}', '{"type":"a"}', '', '{"type":"b"}']),
    );
    expect(envelope.items.map((i) => [i.type, i.payload.length])).toEqual([
      ['a', 0],
      ['b', 0],
    ]);
  });

  it.each([
    ['empty', Buffer.alloc(0)],
    ['bad header', text(['{', '{"type":"event"}', '{}'])],
    ['array header', text(['[]'])],
    ['bad item header', text(['{}', 'x', '{}'])],
    ['non-object item header', text(['{}', '1', '{}'])],
    ['short length', text(['{}', '{"type":"event","length":99}', '{}'])],
    ['long payload', text(['{}', '{"type":"event","length":1}', '{}'])],
    ['negative length', text(['{}', '{"type":"event","length":-1}', '{}'])],
    ['string length', text(['{}', '{"type":"event","length":"2"}', '{}'])],
  ])('refuses broken framing: %s', (_name, body) => {
    expect(() => parseEnvelope(body)).toThrow(EnvelopeFramingError);
  });

  it('frames the same however the body is chunked, and stops after the header', () => {
    const body = Buffer.concat([
      Buffer.from('{"dsn":"d"}\n{"type":"attachment","length":3}\n\n\n\n\n'),
      Buffer.from('{"type":"event"}\n{"message":"m"}\n{}\n\n\n'),
    ]);
    const whole = parseEnvelope(body);
    const framer = new EnvelopeFramer();
    const items = [];
    let headerSeenAfter = -1;
    for (let i = 0; i < body.length; i++) {
      items.push(...framer.push(body.subarray(i, i + 1)));
      if (framer.header && headerSeenAfter < 0) {
        headerSeenAfter = i;
        expect(items).toEqual([]);
      }
    }
    items.push(...framer.end());
    expect(headerSeenAfter).toBe(body.indexOf('\n'));
    expect(framer.header).toEqual(whole.header);
    expect(items).toEqual(whole.items);
    expect(items.map((i) => i.payload.toString())).toEqual([
      '\n\n\n',
      '{"message":"m"}',
      '',
    ]);
  });

  it('drops runs of blank lines at once (16 MiB of them took 40 s line by line)', () => {
    const framer = new EnvelopeFramer();
    framer.push(Buffer.from('{}\n{"type":"event"}\n{}\n'));
    const blank = Buffer.alloc(64 * 1024, '\n\r \t\n');
    const started = performance.now();
    for (let i = 0; i < 256; i++) framer.push(blank);
    expect(framer.end()).toEqual([]);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(framer.bufferedBytes).toBe(0);
    expect(() => {
      const after = new EnvelopeFramer();
      after.push(Buffer.from('{}\n{"type":"a"}\n{}\n \n'));
      after.push(Buffer.from('{"type":"b"}\n{}\n'));
    }).toThrow('header of item 2 is not valid JSON');
  });

  it('refuses a header line past 64 KiB before its end arrives', () => {
    const framer = new EnvelopeFramer();
    expect(() => framer.push(Buffer.alloc(65 * 1024, ' '))).toThrow(
      /longer than 65536 bytes/,
    );
  });

  it('refuses (413) past its item limit, before parsing more item headers', () => {
    const body = Buffer.from(`{}\n${'{}\n{}\n'.repeat(3)}not json\n`);
    expect(parseEnvelope(body.subarray(0, 3 + 18), 3).items).toHaveLength(3);
    expect(() => parseEnvelope(body, 3)).toThrow(
      expect.objectContaining({
        kind: TransportErrorKind.PayloadTooLarge,
        message: 'The envelope has more than 3 items.',
      }),
    );
  });
});

describe('EnvelopeFramer with an item policy', () => {
  const MIB = 1024 * 1024;
  const keepEvents = (hold: (bytes: number) => void = () => undefined) => ({
    keeps: (type: string) => type === 'event',
    maxKeptBytes: 1000,
    hold,
  });

  it.each([
    ['with a length', true],
    ['up to its newline', false],
  ])(
    'drops a skipped item %s as it arrives, never holding it',
    (_name, sized) => {
      const attachment = Buffer.alloc(8 * MIB, 'a');
      const body = Buffer.concat([
        Buffer.from('{}\n{"type":"event","length":15}\n{"message":"m"}\n'),
        Buffer.from(
          `{"type":"attachment"${sized ? `,"length":${attachment.length}` : ''}}\n`,
        ),
        attachment,
        Buffer.from('\n{"type":"event"}\n{"message":"n"}\n'),
      ]);
      const framer = new EnvelopeFramer(10, keepEvents());
      const items = [];
      let mostBuffered = 0;
      for (let at = 0; at < body.length; at += 64 * 1024) {
        items.push(...framer.push(body.subarray(at, at + 64 * 1024)));
        mostBuffered = Math.max(mostBuffered, framer.bufferedBytes);
      }
      items.push(...framer.end());
      expect(mostBuffered).toBeLessThan(64 * 1024);
      expect(items.map((i) => [i.type, i.payload.toString()])).toEqual([
        ['event', '{"message":"m"}'],
        ['attachment', ''],
        ['event', '{"message":"n"}'],
      ]);
    },
  );

  it('holds each kept payload before it is buffered, and nothing of skipped ones', () => {
    const held: number[] = [];
    const framer = new EnvelopeFramer(
      10,
      keepEvents((n) => held.push(n)),
    );
    framer.push(Buffer.from('{}\n'));
    framer.push(Buffer.from('{"type":"event","length":15}\n'));
    expect(held).toEqual([15]);
    framer.push(
      Buffer.from('{"message":"m"}\n{"type":"attachment","length":900}\n'),
    );
    framer.push(Buffer.alloc(900));
    framer.push(Buffer.from('\n{"type":"event"}\n{"a":1}\n'));
    expect(held).toEqual([15, 7]);
  });

  it.each([
    ['declares', '{"type":"event","length":1001}\n'],
    ['streams', `{"type":"event"}\n${'x'.repeat(1001)}`],
  ])(
    'refuses (413) a kept item that %s more than its limit, before it is buffered whole',
    (_name, item) => {
      const framer = new EnvelopeFramer(10, keepEvents());
      framer.push(Buffer.from('{}\n'));
      expect(() => framer.push(Buffer.from(item))).toThrow(
        expect.objectContaining({
          kind: TransportErrorKind.PayloadTooLarge,
          message: 'An event is larger than 1000 bytes.',
        }),
      );
    },
  );

  it.each([
    [
      'shorter',
      '{"type":"attachment","length":5}\nabc',
      /shorter than its length/,
    ],
    [
      'longer',
      '{"type":"attachment","length":2}\nabc\n',
      /longer than its length/,
    ],
  ])(
    'refuses a skipped item %s than its length as broken framing',
    (_name, item, message) => {
      const framer = new EnvelopeFramer(10, keepEvents());
      expect(() => {
        framer.push(Buffer.from(`{}\n${item}`));
        framer.push(Buffer.alloc(0));
        framer.end();
      }).toThrow(message);
    },
  );

  it('counts skipped items toward the item limit', () => {
    const framer = new EnvelopeFramer(2, keepEvents());
    framer.push(Buffer.from('{}\n'));
    expect(() =>
      framer.push(
        Buffer.from(
          '{"type":"a"}\nx\n{"type":"b","length":1}\ny\n{"type":"c"}\nz\n',
        ),
      ),
    ).toThrow('The envelope has more than 2 items.');
  });

  describe('streamed items', () => {
    const streamAttachments = {
      ...keepEvents(),
      streams: (type: string, length: number) =>
        type === 'attachment' && length <= 8 * MIB,
    };

    it.each([7, 4096, 64 * 1024])(
      'hands out an attachment piece by piece as it arrives (chunks of %i bytes), holding none of it, the items around it whole',
      (chunkSize) => {
        const attachment = Buffer.alloc(256 * 1024);
        for (let i = 0; i < attachment.length; i += 1) attachment[i] = i % 251;
        const body = Buffer.concat([
          Buffer.from('{}\n{"type":"event","length":15}\n{"message":"m"}\n'),
          Buffer.from(
            `{"type":"attachment","filename":"a.bin","length":${attachment.length}}\n`,
          ),
          attachment,
          Buffer.from('\n{"type":"event"}\n{"message":"n"}\n'),
        ]);
        const framer = new EnvelopeFramer(10, streamAttachments);
        const items = [];
        let mostBuffered = 0;
        for (let at = 0; at < body.length; at += chunkSize) {
          items.push(...framer.push(body.subarray(at, at + chunkSize)));
          mostBuffered = Math.max(mostBuffered, framer.bufferedBytes);
        }
        items.push(...framer.end());
        // A header line and a chunk at most, never the attachment.
        expect(mostBuffered).toBeLessThanOrEqual(chunkSize + 128);
        const pieces = items.filter((i) => i.streamed === 'more');
        expect(
          Buffer.concat(pieces.map((p) => p.payload)).equals(attachment),
        ).toBe(true);
        expect(
          items
            .filter((i) => i.streamed !== 'more')
            .map((i) => [i.type, i.streamed, i.payload.toString()]),
        ).toEqual([
          ['event', undefined, '{"message":"m"}'],
          ['attachment', 'last', ''],
          ['event', undefined, '{"message":"n"}'],
        ]);
        expect(pieces.every((p) => p.header['filename'] === 'a.bin')).toBe(
          true,
        );
      },
    );

    it("ends an attachment that is the body's last item without a newline", () => {
      const framer = new EnvelopeFramer(10, streamAttachments);
      const items = [
        ...framer.push(Buffer.from('{}\n')),
        ...framer.push(Buffer.from('{"type":"attachment","length":3}\nabc')),
        ...framer.end(),
      ];
      expect(items.map((i) => [i.streamed, i.payload.toString()])).toEqual([
        ['more', 'abc'],
        ['last', ''],
      ]);
    });

    it.each([
      ['past the policy', '{"type":"attachment","length":9000000}\n'],
      ['without a length', '{"type":"attachment"}\n'],
    ])('drops an attachment %s as a skipped item', (_name, header) => {
      const framer = new EnvelopeFramer(10, streamAttachments);
      framer.push(Buffer.from('{}\n'));
      const items = [...framer.push(Buffer.from(`${header}abc\n`))];
      expect(items.map((i) => [i.streamed, i.payload.length])).toEqual(
        header.includes('length') ? [] : [[undefined, 0]],
      );
    });

    it.each([
      ['shorter', '{"type":"attachment","length":5}\nabc', /shorter/],
      ['longer', '{"type":"attachment","length":2}\nabc\n', /longer/],
    ])(
      'refuses a streamed item %s than its length as broken framing',
      (_name, item, message) => {
        const framer = new EnvelopeFramer(10, streamAttachments);
        expect(() => {
          framer.push(Buffer.from(`{}\n${item}`));
          framer.push(Buffer.alloc(0));
          framer.end();
        }).toThrow(message);
      },
    );
  });
});
