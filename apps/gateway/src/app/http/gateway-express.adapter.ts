import type { Server } from 'node:http';

import { StreamableFile } from '@nestjs/common';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { JsonText, endWithBody } from '@quitanda/http';
import type { Response } from 'express';

import type { HttpServerLimits } from '../config/gateway-config';

/**
 * Express, with a leaner way of sending controller results.
 *
 * Nest's default `reply` goes through Express's `res.json()`/`res.send()`,
 * which on every response recomputes charsets, checks request freshness and
 * re-encodes the body; measured here it was a third of the framework's cost
 * per request. Plain objects are serialised once and written with their
 * length; JSON text from the database (`JsonText`) is written as it is;
 * everything else (streams, buffers, empty bodies) keeps Nest's own path.
 *
 * Its server bounds what one client can hold (`limits`): Node's defaults
 * let a trickled body keep its connection for 300 s, with no cap on
 * connections.
 */
export class GatewayExpressAdapter extends ExpressAdapter {
  constructor(private readonly limits?: HttpServerLimits) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    super.initHttpServer(options);
    if (this.limits) applyServerLimits(this.httpServer, this.limits);
  }

  override reply(
    response: Response,
    body: unknown,
    statusCode?: number,
  ): unknown {
    // Already answered (a missed deadline): what the handler brings later
    // is not sent.
    if (response.writableEnded) return undefined;
    if (
      body === null ||
      body === undefined ||
      body instanceof StreamableFile ||
      Buffer.isBuffer(body) ||
      (typeof body !== 'object' && typeof body !== 'string')
    ) {
      return super.reply(response, body, statusCode);
    }
    if (statusCode) response.statusCode = statusCode;
    const text =
      typeof body === 'string'
        ? body
        : body instanceof JsonText
          ? body.text
          : JSON.stringify(body);
    if (!response.hasHeader('Content-Type')) {
      response.setHeader(
        'Content-Type',
        typeof body === 'string'
          ? 'text/html; charset=utf-8'
          : 'application/json; charset=utf-8',
      );
    }
    endWithBody(response, text);
    return undefined;
  }
}

function applyServerLimits(server: Server, limits: HttpServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  // Node looks for expired requests every 30 s by default, which would let
  // a 1 s timeout hold for 31; read at listen, so still in time here.
  (
    server as Server & { connectionsCheckingInterval: number }
  ).connectionsCheckingInterval = Math.max(
    50,
    Math.min(30_000, Math.floor(limits.headersTimeoutMs / 4)),
  );
}
