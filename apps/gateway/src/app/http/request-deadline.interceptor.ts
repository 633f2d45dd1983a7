import { Inject, Injectable } from '@nestjs/common';
import type {
  CallHandler,
  ExecutionContext,
  NestInterceptor,
} from '@nestjs/common';
import { DEADLINE_PAUSE, DEADLINE_RESTART } from '@quitanda/http';
import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import { Observable } from 'rxjs';
import type { Request, Response } from 'express';

import { GATEWAY_CONFIG } from '../config/gateway-config';
import type { GatewayConfig } from '../config/gateway-config';

/** Seconds a client is told to wait after a missed deadline. */
const RETRY_AFTER_SECONDS = 5;

function missedDeadline(): TransportError {
  return new TransportError(
    TransportErrorKind.ServiceUnavailable,
    'The request could not finish in time (the database is slow or unreachable); retry later.',
    [],
    RETRY_AFTER_SECONDS,
  );
}

/**
 * Every route's deadline (`DB_TIMEOUT_MS`): a handler still without an
 * answer when it passes gets a 503 with `Retry-After` in its context's
 * format, however its waits add up (a pool wait, then statements). What it
 * does later is not sent: for the collector, no success for an event whose
 * commit was not seen in time (a retry is deduplicated by its event id).
 *
 * The client's own transfer is not the server's wait: the clock starts once
 * the request body has arrived (handlers that read it themselves: uploads,
 * the collector), it stands still while a handler does CPU-only work
 * (`pauseDeadline`/`restartDeadline`: the collector inflating a body), and
 * a response already being streamed is left alone.
 */
@Injectable()
export class RequestDeadlineInterceptor implements NestInterceptor {
  private readonly deadlineMs: number;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.deadlineMs = config.dbTimeoutMs;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    return new Observable((subscriber) => {
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        timer = setTimeout(() => {
          if (!res.headersSent) subscriber.error(missedDeadline());
        }, this.deadlineMs);
      };
      const pause = () => clearTimeout(timer);
      const restart = () => {
        clearTimeout(timer);
        arm();
      };
      if (req.complete) arm();
      else req.once('end', arm);
      req.on(DEADLINE_PAUSE, pause);
      req.on(DEADLINE_RESTART, restart);
      const handled = next.handle().subscribe(subscriber);
      return () => {
        clearTimeout(timer);
        req.off('end', arm);
        req.off(DEADLINE_PAUSE, pause);
        req.off(DEADLINE_RESTART, restart);
        handled.unsubscribe();
      };
    });
  }
}
