import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * Nest's own messages (startup, errors of its internals) through pino, so
 * every line the gateway writes is the same JSON.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }

  error(message: unknown, ...rest: unknown[]): void {
    const context =
      typeof rest[rest.length - 1] === 'string'
        ? (rest.pop() as string)
        : undefined;
    const stack = rest.find((item) => typeof item === 'string');
    if (message instanceof Error) {
      this.logger.error({ err: message, context }, message.message);
    } else if (message && typeof message === 'object') {
      this.logger.error({ ...(message as object), context, stack }, 'error');
    } else {
      this.logger.error({ context, stack }, String(message));
    }
  }

  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }

  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }

  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(
    level: 'info' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    context?: string,
  ): void {
    if (message && typeof message === 'object' && !(message instanceof Error)) {
      this.logger[level]({ ...(message as object), context });
    } else {
      this.logger[level]({ context }, String(message));
    }
  }
}
