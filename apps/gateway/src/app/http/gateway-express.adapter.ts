import cluster from 'node:cluster';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

import { StreamableFile } from '@nestjs/common';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { runAsCaller } from '@quitanda/database';
import { JsonText, endWithBody } from '@quitanda/http';
import type { Request, Response } from 'express';

import type { HttpServerLimits } from '../config/gateway-config';
import { adoptExpressPrototypes } from './express-messages';
import type { ExpressPrototypes } from './express-messages';

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
 *
 * With `callerScopes` (a replica configured), every route handler runs as
 * its request's caller (`runAsCaller`), so that a caller's replica reads
 * wait for its own writes: the contexts name authenticated callers, any
 * other is its client address. Entered here rather than in a middleware,
 * which would hand the scope to the contexts' body parsers: they resume
 * from the socket's events, outside it. Without a replica nothing is
 * entered, and Node's async context tracking stays off.
 */
export class GatewayExpressAdapter extends ExpressAdapter {
  constructor(
    private readonly limits?: HttpServerLimits,
    options: { readonly callerScopes?: boolean } = {},
  ) {
    super();
    if (options.callerScopes) scopeRoutesByCaller(this);
  }

  /**
   * Nest's server, but with requests and responses born with Express's
   * prototypes (`adoptExpressPrototypes`); the gateway serves plain HTTP.
   */
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections)
      throw new Error('The gateway serves plain HTTP with its own limits.');
    this.httpServer = createServer(
      adoptExpressPrototypes(this.getInstance<ExpressPrototypes>()),
      this.getInstance(),
    );
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

/** What Nest registers routes through (its `RouterMethodFactory`). */
const ROUTE_METHODS = [
  'get',
  'post',
  'put',
  'patch',
  'delete',
  'head',
  'options',
  'all',
  'search',
] as const;

type RouteRegistration = (...args: unknown[]) => unknown;

function scopeRoutesByCaller(adapter: ExpressAdapter): void {
  const methods = adapter as unknown as Record<string, RouteRegistration>;
  for (const method of ROUTE_METHODS) {
    const register = (methods[method] as RouteRegistration).bind(adapter);
    methods[method] = (...args: unknown[]) => {
      const handler = args.at(-1);
      if (typeof handler !== 'function') return register(...args);
      const scoped = (req: Request, res: Response, next: unknown) =>
        runAsCaller(
          req,
          () => `address:${req.ip}`,
          () => handler(req, res, next),
        );
      return register(...args.slice(0, -1), scoped);
    };
  }
}

function applyServerLimits(server: Server, limits: HttpServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // A cluster worker (every gateway with DATABASE_URL) gets connections
  // from its primary; were `maxConnections` set, the worker would refuse
  // them back to the primary, which holds them open, never closed.
  if (cluster.isWorker) capConnections(server, limits.maxConnections);
  else server.maxConnections = limits.maxConnections;
  // Node looks for expired requests every 30 s by default, which would let
  // a 1 s timeout hold for 31; read at listen, so still in time here.
  (
    server as Server & { connectionsCheckingInterval: number }
  ).connectionsCheckingInterval = Math.max(
    50,
    Math.min(30_000, Math.floor(limits.headersTimeoutMs / 4)),
  );
}

/**
 * `maxConnections` by hand, for a cluster worker: a connection past the cap
 * is closed as it arrives, as Node closes one for a single process.
 */
function capConnections(server: Server, max: number): void {
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= max) {
      socket.destroy();
      return;
    }
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
  });
}
