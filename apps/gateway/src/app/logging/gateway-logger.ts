import pino from 'pino';
import type { Logger } from 'pino';

import type { GatewayConfig } from '../config/gateway-config';

/**
 * The gateway's one pino logger. Lines are buffered and written in 4 KiB
 * batches (one write per batch instead of one per request); the buffer is
 * flushed on shutdown and at exit.
 */
export function createGatewayLogger(
  config: Pick<GatewayConfig, 'logLevel'>,
): Logger {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: 4096,
  });
  process.once('exit', () => destination.flushSync());
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
    destination,
  );
}
