import { Writable } from 'node:stream';

import { Logger } from '@nestjs/common';
import pino from 'pino';

import { PinoNestLogger } from './pino-nest-logger';

function capture(level = 'debug') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  const nest = new PinoNestLogger(pino({ level }, stream));
  Logger.overrideLogger(nest);
  return lines;
}

describe('PinoNestLogger', () => {
  afterEach(() => Logger.overrideLogger(false));

  it('gives a named logger its fields, message and context', () => {
    const lines = capture();
    new Logger('ErrorTrackingRetention').log(
      { cutoff: '2026-01-01T00:00:00.000Z', deletedErrors: 3 },
      'Retention ran',
    );
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'Retention ran',
        context: 'ErrorTrackingRetention',
        cutoff: '2026-01-01T00:00:00.000Z',
        deletedErrors: 3,
      }),
    ]);
  });

  it('writes an error object as err, with the message given', () => {
    const lines = capture();
    new Logger('IngestionQueue').error(
      { err: new Error('connection refused') },
      'Ingestion flush failed',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'Ingestion flush failed',
      context: 'IngestionQueue',
      err: { message: 'connection refused', type: 'Error' },
    });
    expect(lines[0]).not.toHaveProperty('stack');
  });

  it("keeps Nest's (message, stack, context) errors apart", () => {
    const lines = capture();
    const failure = new Error('boom');
    new Logger('ExceptionsHandler').error(failure.message, failure.stack);
    new Logger('Named').error('alone');
    expect(lines[0]).toMatchObject({
      msg: 'boom',
      context: 'ExceptionsHandler',
      stack: failure.stack,
    });
    expect(lines[1]).toMatchObject({ msg: 'alone', context: 'Named' });
  });

  it('puts framework start-up lines at debug, and never leaves msg out', () => {
    const lines = capture('info');
    new Logger('RouterExplorer').log('Mapped {/events, GET} route');
    new Logger('InstanceLoader').log('AppModule dependencies initialized');
    new Logger('Retention').log({ deleted: 1 });
    new Logger('Queue').warn('slow');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'Retention', deleted: 1 }),
      expect.objectContaining({ level: 40, msg: 'slow', context: 'Queue' }),
    ]);
  });
});
