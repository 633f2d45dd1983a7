import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

import {
  BlockedTargetError,
  guardedLookup,
  targetProblem,
} from './webhook-target';
import type { TargetPolicy } from './webhook-target';

/** A receiver that has not answered by then has failed (the contract's 10 s). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Only this much of a response is read (and then dropped). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export const WEBHOOK_EVENT_NAME = 'Error Tracking Hook';

export interface WebhookRequest {
  readonly url: string;
  readonly body: string;
  /** Sent as `X-Gitlab-Event-UUID` and `Idempotency-Key`. */
  readonly eventUuid: string;
  readonly token?: string;
  readonly verifyTls: boolean;
  /** `X-Gitlab-Instance`: the gateway's base URL. */
  readonly instance: string;
}

export interface WebhookOutcome {
  /** 2xx. */
  readonly delivered: boolean;
  readonly status: number | null;
  readonly durationSeconds: number;
  /** Why there is no 2xx (never contains the token). */
  readonly error?: string;
}

/**
 * One POST to a hook with GitLab's delivery headers. Resolves in every
 * case (refused, blocked, timeout, any status); redirects are not followed.
 */
export function sendWebhook(
  request: WebhookRequest,
  policy: TargetPolicy,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<WebhookOutcome> {
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  const failed = (error: string, status: number | null = null) => ({
    delivered: false,
    status,
    durationSeconds: seconds(),
    error,
  });
  // The rule hooks were created under, checked again: a hook stored
  // before a range was blocked is not sent there either. Names are
  // checked as they resolve (guardedLookup).
  const problem = targetProblem(request.url, policy);
  if (problem) return Promise.resolve(failed(`The URL ${problem}`));
  const url = new URL(request.url);
  const body = Buffer.from(request.body);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(body.length),
    'User-Agent': 'Quitanda (GitLab webhooks)',
    'X-Gitlab-Event': WEBHOOK_EVENT_NAME,
    'X-Gitlab-Event-UUID': request.eventUuid,
    'X-Gitlab-Instance': request.instance,
    'Idempotency-Key': request.eventUuid,
  };
  if (request.token) headers['X-Gitlab-Token'] = request.token;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = send(
      url,
      {
        method: 'POST',
        headers,
        lookup: guardedLookup(policy) as never,
        rejectUnauthorized: request.verifyTls,
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = () => {
          const status = res.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          finish(
            ok
              ? { delivered: true, status, durationSeconds: seconds() }
              : failed(`HTTP ${status}`, status),
          );
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no response within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    req.on('error', (error: Error) => {
      finish(
        failed(
          error instanceof BlockedTargetError
            ? error.message
            : `${(error as NodeJS.ErrnoException).code ?? 'error'}: ${error.message}`,
        ),
      );
    });
    req.end(body);
  });
}
