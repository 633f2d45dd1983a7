import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

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

function tooLarge(): MarketplaceError {
  return MarketplaceError.blRuntime(
    `the Flex service answered more than ${MAX_FLEX_RESPONSE_BYTES} bytes`,
  );
}

class FlexTimeout extends Error {}

interface RawAnswer {
  readonly status: number;
  readonly text: string;
  readonly continueHeader: string | undefined;
}

/**
 * Kept-alive connections to the services: a hook runs on every data call
 * it is bound to. node:http rather than fetch, whose streams, signals and
 * timers cost the gateway more CPU per call than the rest of a create.
 */
const AGENTS = {
  'http:': new HttpAgent({ keepAlive: true }),
  'https:': new HttpsAgent({ keepAlive: true }),
};

/**
 * One request to a service, its answer read whole up to
 * MAX_FLEX_RESPONSE_BYTES; a `FlexTimeout` once `timeoutMs` pass.
 */
function exchange(
  url: URL,
  call: FlexCall,
  timeoutMs: number,
): Promise<RawAnswer> {
  const body =
    call.body === undefined
      ? undefined
      : Buffer.from(JSON.stringify(call.body));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = url.protocol === 'https:' ? AGENTS['https:'] : AGENTS['http:'];
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = send(url, {
      method: call.method,
      agent,
      headers: {
        ...call.headers,
        ...(body ? { 'content-length': String(body.length) } : {}),
      },
    });
    const timer = setTimeout(() => req.destroy(new FlexTimeout()), timeoutMs);
    const fail = (error: unknown) => {
      clearTimeout(timer);
      reject(error);
    };
    req.on('error', fail);
    req.once('response', (res) => {
      const declared = Number(res.headers['content-length']);
      if (declared > MAX_FLEX_RESPONSE_BYTES) {
        req.destroy(tooLarge());
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_FLEX_RESPONSE_BYTES) req.destroy(tooLarge());
        else chunks.push(chunk);
      });
      res.on('error', fail);
      res.once('end', () => {
        clearTimeout(timer);
        const header = res.headers['x-kinvey-request-continue'];
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          continueHeader: Array.isArray(header) ? header[0] : header,
        });
      });
    });
    req.end(body);
  });
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
    let answer: RawAnswer;
    try {
      answer = await exchange(
        new URL(`${service.url}${call.path}`),
        call,
        service.timeoutMs,
      );
    } catch (error) {
      if (error instanceof MarketplaceError) throw error;
      if (error instanceof FlexTimeout)
        throw MarketplaceError.blTimeout(
          `the Flex service ${service.name} did not answer within ${service.timeoutMs} ms`,
        );
      throw MarketplaceError.blRuntime(
        `the Flex service ${service.name} could not be reached`,
      );
    }
    // Followed by no one: a service that redirects is misconfigured.
    if (answer.status >= 300 && answer.status < 400)
      throw MarketplaceError.blRuntime(
        `the Flex service ${service.name} answered a redirect (${answer.status})`,
      );
    let body: unknown;
    try {
      body = answer.text === '' ? undefined : JSON.parse(answer.text);
    } catch {
      throw MarketplaceError.blRuntime(
        `the Flex service ${service.name} answered ${answer.status} without JSON`,
      );
    }
    return {
      status: answer.status,
      body,
      continue: answer.continueHeader !== 'false',
    };
  }
}
