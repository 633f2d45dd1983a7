import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

import type { GatewayConfig } from '../config/gateway-config';
import { readableEntry } from './readable-entry';

/** How lines are written: `LOG_FORMAT`, with `auto` settled by the output. */
export function logFormatOf(
  format: GatewayConfig['logFormat'],
  output: { isTTY?: boolean } = process.stdout,
): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return output.isTTY ? 'pretty' : 'json';
}

/**
 * JSON lines, buffered and written in 4 KiB batches (one write per batch
 * instead of one per request), flushed on shutdown and at exit.
 */
function jsonDestination(): DestinationStream {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: 4096,
  });
  process.once('exit', () => destination.flushSync());
  return destination;
}

/**
 * One readable line per entry, for a person at a terminal. Formatted and
 * written in the call that logs it, not through pino-pretty's stream
 * pipeline: a line still in that pipeline when the process exits is lost,
 * and the last lines of a shutdown are the ones a person waits for.
 */
function prettyDestination(): DestinationStream {
  const pretty = prettyFactory({
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  const destination = pino.destination({ dest: 1, sync: true });
  return {
    write: (line: string) =>
      destination.write(pretty(readableEntry(JSON.parse(line)))),
  };
}

/** The gateway's one pino logger, in the format `LOG_FORMAT` asks for. */
export function createGatewayLogger(
  config: Pick<GatewayConfig, 'logLevel' | 'logFormat'>,
): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['*.password', '*.token', '*.secret'],
        censor: '[REDACTED]',
      },
    },
    logFormatOf(config.logFormat) === 'pretty'
      ? prettyDestination()
      : jsonDestination(),
  );
}
