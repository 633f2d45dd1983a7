import { NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import {
  DomainError,
  TransportError,
  TransportErrorKind,
} from '@quitanda/kernel';
import type { HttpErrorFormat } from '@quitanda/kernel';

import { HttpErrorFilter } from './http-error.filter';

class ShopError extends DomainError<'sold_out'> {
  readonly context = 'shop';
  constructor() {
    super('sold_out', 'Sold out');
  }
}

const shopFormat: HttpErrorFormat = {
  context: 'shop',
  owns: (path) => path.startsWith('/shop'),
  render: (error) => ({
    status: error instanceof DomainError ? 409 : 499,
    contentType: 'application/x-shop+json',
    body: {
      shop: error instanceof DomainError ? error.code : error.kind,
      message: error.message,
    },
  }),
};

/** The web UI's format: renders pages for browsers. */
const pagesFormat: HttpErrorFormat = {
  context: 'pages',
  owns: (path) => path.startsWith('/pages'),
  render: () => ({ status: 418, contentType: 'text/plain', body: 'owned' }),
  renderPage: (error) => ({
    status: 404,
    contentType: 'text/html; charset=utf-8',
    body: `<h1>${error.message}</h1>`,
  }),
};

/**
 * `prefers`: what Express's `req.accepts(['application/json', 'text/html'])`
 * answers for the request's Accept header.
 */
function exchange(
  path: string,
  headersSent = false,
  prefers = 'application/json',
) {
  const sent: {
    status?: number;
    headers: Record<string, string | number>;
    body?: string;
    destroyed?: boolean;
  } = {
    headers: {},
  };
  const res = {
    headersSent,
    status(code: number) {
      sent.status = code;
      return res;
    },
    setHeader(name: string, value: string | number) {
      sent.headers[name] = value;
    },
    end(body: string) {
      sent.body = body;
    },
    destroy() {
      sent.destroyed = true;
    },
  };
  const host = {
    switchToHttp: () => ({
      getRequest: () => ({ path, id: 'req-9', accepts: () => prefers }),
      getResponse: () => res,
    }),
  } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('HttpErrorFilter', () => {
  const filter = new HttpErrorFilter([shopFormat]);

  it("renders a domain error in its own context's format", () => {
    const { host, sent } = exchange('/anything');
    filter.catch(new ShopError(), host);
    expect(sent.status).toBe(409);
    expect(sent.headers['Content-Type']).toBe('application/x-shop+json');
    expect(JSON.parse(sent.body as string)).toEqual({
      shop: 'sold_out',
      message: 'Sold out',
    });
    expect(sent.headers['Content-Length']).toBe(
      Buffer.byteLength(sent.body as string),
    );
  });

  it('renders transport failures by the format owning the path', () => {
    const { host, sent } = exchange('/shop/cart');
    filter.catch(
      new TransportError(TransportErrorKind.MalformedBody, 'bad json'),
      host,
    );
    expect(JSON.parse(sent.body as string)).toEqual({
      shop: 'malformed_body',
      message: 'bad json',
    });
  });

  it("turns Nest's HTTP exceptions into transport failures", () => {
    const notFound = exchange('/shop/nothing');
    filter.catch(
      new NotFoundException('Cannot GET /shop/nothing'),
      notFound.host,
    );
    expect(JSON.parse(notFound.sent.body as string).shop).toBe(
      'route_not_found',
    );

    const tooLarge = exchange('/shop');
    filter.catch(new PayloadTooLargeException(), tooLarge.host);
    expect(JSON.parse(tooLarge.sent.body as string).shop).toBe(
      'payload_too_large',
    );
  });

  it('answers unexpected errors with a generic 500 and the request id, never the message', () => {
    const { host, sent } = exchange('/health/ready');
    filter.catch(new Error('connection string postgres://u:hunter2@db'), host);
    expect(sent.status).toBe(500);
    expect(sent.body).not.toContain('hunter2');
    expect(JSON.parse(sent.body as string)).toMatchObject({
      statusCode: 500,
      request_id: 'req-9',
    });
  });

  it('maps an unreachable database to 503 with Retry-After', () => {
    const { host, sent } = exchange('/health/ready');
    filter.catch(
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
      }),
      host,
    );
    expect(sent.status).toBe(503);
    expect(sent.headers['Retry-After']).toBe('5');
  });

  it('cuts the connection when the response has already started', () => {
    const { host, sent } = exchange('/shop', true);
    filter.catch(new Error('late'), host);
    expect(sent.destroyed).toBe(true);
    expect(sent.body).toBeUndefined();
  });

  describe('a route nobody has', () => {
    const withPages = new HttpErrorFilter([shopFormat, pagesFormat]);
    const notFound = () =>
      new TransportError(TransportErrorKind.RouteNotFound, 'No such page');

    it('is the HTML page for a browser opening a page', () => {
      const { host, sent } = exchange('/no/such', false, 'text/html');
      withPages.catch(notFound(), host);
      expect(sent.status).toBe(404);
      expect(sent.headers['Content-Type']).toBe('text/html; charset=utf-8');
      expect(sent.body).toBe('<h1>No such page</h1>');
    });

    it('stays JSON for API clients, API paths and other failures', () => {
      for (const [path, prefers, error] of [
        ['/no/such', 'application/json', notFound()],
        ['/api/no/such', 'text/html', notFound()],
        [
          '/health',
          'text/html',
          new TransportError(TransportErrorKind.ServiceUnavailable, 'down'),
        ],
      ] as const) {
        const { host, sent } = exchange(path, false, prefers);
        withPages.catch(error, host);
        expect(sent.headers['Content-Type']).toBe(
          'application/json; charset=utf-8',
        );
      }
    });

    it("keeps an owned path in its context's format for a browser", () => {
      const { host, sent } = exchange('/shop/nothing', false, 'text/html');
      withPages.catch(notFound(), host);
      expect(sent.headers['Content-Type']).toBe('application/x-shop+json');
    });
  });
});
