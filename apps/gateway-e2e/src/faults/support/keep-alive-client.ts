import { Agent, request } from 'node:http';

export interface Exchange {
  readonly sentAt: number;
  readonly receivedAt: number;
  /** 0 when no response came (refused, reset, closed). */
  readonly status: number;
  readonly connection?: string;
  readonly body: string;
  readonly error?: string;
}

/**
 * One client holding one keep-alive connection (as a browser or an SDK
 * does), so a test sees what happens on connections that are never idle.
 * Times are `performance.now()` of this process.
 */
export class KeepAliveClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly baseUrl: string) {}

  send(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<Exchange> {
    const url = new URL(path, this.baseUrl);
    const sentAt = performance.now();
    return new Promise((resolve) => {
      const req = request(
        url,
        { method, agent: this.agent, headers, timeout: 15_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              sentAt,
              receivedAt: performance.now(),
              status: res.statusCode ?? 0,
              connection: res.headers.connection,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', (error) =>
            resolve({
              sentAt,
              receivedAt: performance.now(),
              status: 0,
              body: '',
              error: error.message,
            }),
          );
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (error) =>
        resolve({
          sentAt,
          receivedAt: performance.now(),
          status: 0,
          body: '',
          error: (error as NodeJS.ErrnoException).code ?? error.message,
        }),
      );
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
