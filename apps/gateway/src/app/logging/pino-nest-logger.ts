import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's own start-up chatter (module init, route mapping, "started"): useful
 * when debugging, noise on a person's first screen, so written at debug.
 */
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** A stack trace Nest passes as a string (`error(message, stack, context)`). */
const STACK = /\n\s+at /;

/**
 * Nest's own messages (startup, errors of its internals) and the contexts'
 * `new Logger(name)` lines through pino, so every line the gateway writes is
 * the same JSON with a `msg`.
 *
 * Nest calls `log(message, ...params, context)`: a `Logger` with a name
 * appends that name last. A string before it is the message when the first
 * argument is an object of fields (`logger.log({ cutoff }, 'Retention ran')`),
 * or the stack on `error`.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    this.write(
      context && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info',
      message,
      params,
      context,
    );
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params, contextOf(params));
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params, contextOf(params));
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params, contextOf(params));
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params, contextOf(params));
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params, contextOf(params));
  }

  private write(
    level: Level,
    message: unknown,
    params: unknown[],
    context: string | undefined,
  ): void {
    const strings = params.filter(
      (param): param is string => typeof param === 'string',
    );
    const stack = strings.find((text) => STACK.test(text));
    const text = strings.find((item) => !STACK.test(item));
    if (message instanceof Error) {
      this.logger[level]({ err: message, context }, text ?? message.message);
    } else if (message && typeof message === 'object') {
      const fields = message as Record<string, unknown>;
      const fallback =
        typeof fields['message'] === 'string'
          ? fields['message']
          : fields['err'] instanceof Error
            ? fields['err'].message
            : (context ?? level);
      this.logger[level](
        stack ? { ...fields, context, stack } : { ...fields, context },
        text ?? fallback,
      );
    } else {
      this.logger[level](
        stack ? { context, stack } : { context },
        String(message),
      );
    }
  }
}

/** Nest appends a named logger's context last; it is removed from `params`. */
function contextOf(params: unknown[]): string | undefined {
  const last = params.at(-1);
  if (typeof last !== 'string' || STACK.test(last)) return undefined;
  params.pop();
  return last;
}
