import type { Server, ServerResponse } from 'node:http';

/**
 * A clean stop for keep-alive clients. Node's `server.close()` stops
 * accepting and closes the connections idle at that instant, but a client
 * that keeps its connection busy is served on it indefinitely. Once
 * draining, every response not yet started says `Connection: close` (Node
 * then closes the socket after it), and every connection that falls idle is
 * closed; `drain` resolves when the last one is gone.
 */
export class ConnectionDrain {
  private draining = false;
  private readonly inFlight = new Set<ServerResponse>();

  constructor(private readonly server: Server) {
    server.on('request', (_req, res: ServerResponse) => this.track(res));
  }

  private track(res: ServerResponse): void {
    if (this.draining) res.shouldKeepAlive = false;
    this.inFlight.add(res);
    res.once('close', () => {
      this.inFlight.delete(res);
      if (this.draining) this.server.closeIdleConnections();
    });
  }

  drain(): Promise<void> {
    this.draining = true;
    for (const res of this.inFlight)
      if (!res.headersSent) res.shouldKeepAlive = false;
    return new Promise((resolve) => {
      // Resolves once every connection has closed (or it was not listening).
      this.server.close(() => resolve());
      this.server.closeIdleConnections();
    });
  }
}
