import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Arrivals } from './arrivals';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The status this receiver answered with. */
  readonly status: number;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for a webhook receiver: it
 * records every request and answers with the queued statuses, then 200.
 */
export class WebhookReceiver {
  private readonly arrivals = new Arrivals<ReceivedRequest>('webhook requests');
  readonly requests: ReceivedRequest[] = this.arrivals.items;
  private readonly statuses: number[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const holder: { receiver?: WebhookReceiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const status = holder.receiver?.statuses.shift() ?? 200;
        holder.receiver?.arrivals.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          status,
        });
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(status < 300 ? 'ok' : 'not now');
      });
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    const { port } = server.address() as AddressInfo;
    holder.receiver = new WebhookReceiver(
      server,
      `http://127.0.0.1:${port}/hook`,
    );
    return holder.receiver;
  }

  /** The next requests get these statuses (then 200 again). */
  respondWith(...statuses: number[]): void {
    this.statuses.push(...statuses);
  }

  /** Resolves once `count` have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]> {
    return this.arrivals.waitFor(count, timeoutMs);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
