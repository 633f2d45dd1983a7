import { Injectable } from '@nestjs/common';
import { pauseDeadline, restartDeadline } from '@quitanda/http';

import { MarketplaceError } from '../common/marketplace.errors';
import type { FlexService } from './business-logic.types';

/** Largest answer read from a Flex service; a larger one is a BLRuntimeError. */
export const MAX_FLEX_RESPONSE_BYTES = 10 * 1024 * 1024;

export interface FlexAnswer {
  readonly status: number;
  readonly body: unknown;
  /** `X-Kinvey-Request-Continue`: whether a pre-hook lets the request go on. */
  readonly continue: boolean;
}

export interface FlexHealth {
  readonly healthy: boolean;
  /** How long the check took. */
  readonly ms: number;
  readonly detail?: string;
}

export interface FlexCall {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below the service's URL, already encoded. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
  /** The gateway request waiting on it: its deadline pauses meanwhile. */
  readonly request?: object;
}

async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > MAX_FLEX_RESPONSE_BYTES) throw tooLarge();
  if (!response.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Uint8Array).byteLength;
    if (size > MAX_FLEX_RESPONSE_BYTES) throw tooLarge();
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(): MarketplaceError {
  return MarketplaceError.blRuntime(
    `the Flex service answered more than ${MAX_FLEX_RESPONSE_BYTES} bytes`,
  );
}

/**
 * Calls a Flex service within its timeout and reads at most
 * MAX_FLEX_RESPONSE_BYTES of JSON. Whatever goes wrong is Kinvey's
 * BLTimeoutError or BLRuntimeError; the shared secret never reaches an
 * error or a log line.
 */
@Injectable()
export class FlexClient {
  async call(service: FlexService, call: FlexCall): Promise<FlexAnswer> {
    // Waiting for the service is not a wait for the database: the
    // service's own timeout bounds it.
    if (call.request) pauseDeadline(call.request);
    try {
      return await this.send(service, call);
    } finally {
      if (call.request) restartDeadline(call.request);
    }
  }

  /** The service's health check (kinvey-code-task-runner's `/healthcheck`). */
  async health(service: FlexService): Promise<FlexHealth> {
    const started = performance.now();
    try {
      const answer = await this.send(service, {
        method: 'GET',
        path: '/healthcheck',
        headers: { 'x-auth-key': service.sharedSecret },
      });
      const healthy =
        answer.status === 200 &&
        typeof answer.body === 'object' &&
        answer.body !== null &&
        (answer.body as Record<string, unknown>)['healthy'] === true;
      return {
        healthy,
        ms: Math.round(performance.now() - started),
        ...(healthy ? {} : { detail: `answered ${answer.status}` }),
      };
    } catch (error) {
      if (!(error instanceof MarketplaceError)) throw error;
      return {
        healthy: false,
        ms: Math.round(performance.now() - started),
        detail: error.debug,
      };
    }
  }

  private async send(
    service: FlexService,
    call: FlexCall,
  ): Promise<FlexAnswer> {
    const signal = AbortSignal.timeout(service.timeoutMs);
    let text: string;
    let response: Response;
    try {
      response = await fetch(`${service.url}${call.path}`, {
        method: call.method,
        headers: call.headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        redirect: 'error',
        signal,
      });
      text = await readBounded(response);
    } catch (error) {
      if (error instanceof MarketplaceError) throw error;
      if (signal.aborted)
        throw MarketplaceError.blTimeout(
          `the Flex service ${service.name} did not answer within ${service.timeoutMs} ms`,
        );
      throw MarketplaceError.blRuntime(
        `the Flex service ${service.name} could not be reached`,
      );
    }
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw MarketplaceError.blRuntime(
        `the Flex service ${service.name} answered ${response.status} without JSON`,
      );
    }
    return {
      status: response.status,
      body,
      continue: response.headers.get('x-kinvey-request-continue') !== 'false',
    };
  }
}
