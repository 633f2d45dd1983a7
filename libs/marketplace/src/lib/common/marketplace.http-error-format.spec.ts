import { TransportError, TransportErrorKind } from '@quitanda/kernel';

import { MarketplaceError, MarketplaceErrorCode } from './marketplace.errors';
import { marketplaceHttpErrorFormat } from './marketplace.http-error-format';

const context = { requestId: 'req-7', path: '/appdata/kid_x/product' };

describe('marketplaceHttpErrorFormat', () => {
  it('owns the Kinvey namespaces', () => {
    expect(marketplaceHttpErrorFormat.owns('/appdata/kid_x')).toBe(true);
    expect(marketplaceHttpErrorFormat.owns('/user/kid_x/login')).toBe(true);
    expect(marketplaceHttpErrorFormat.owns('/blob/kid_x')).toBe(true);
    expect(marketplaceHttpErrorFormat.owns('/rpc/kid_x/custom/match')).toBe(
      true,
    );
    expect(marketplaceHttpErrorFormat.owns('/events')).toBe(false);
    expect(marketplaceHttpErrorFormat.owns('/userx')).toBe(false);
  });

  it('renders error, description and debug, all strings', () => {
    const response = marketplaceHttpErrorFormat.render(
      new MarketplaceError(
        MarketplaceErrorCode.CollectionNotFound,
        'No such collection',
        'fruit',
      ),
      context,
    );
    expect(response.status).toBe(404);
    expect(response.contentType).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      error: 'CollectionNotFound',
      description: 'No such collection',
      debug: 'fruit',
    });
  });

  it("renders the management API's errors with code where the data API has error, headers kept", () => {
    expect(marketplaceHttpErrorFormat.owns('/manage/v4/apps')).toBe(true);
    expect(marketplaceHttpErrorFormat.owns('/roles/kid_x')).toBe(true);
    const missing = marketplaceHttpErrorFormat.render(
      MarketplaceError.managedNotFound(
        MarketplaceErrorCode.EnvironmentNotFound,
        'kid_gone',
      ),
      { ...context, path: '/manage/v4/environments/kid_gone' },
    );
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      code: 'EnvironmentNotFound',
      description: 'This environment was not found.',
      debug: 'kid_gone',
    });
    const locked = marketplaceHttpErrorFormat.render(
      MarketplaceError.tooManyLogins(new Date(Date.now() + 9_500)),
      { ...context, path: '/manage/session' },
    );
    expect(locked.headers).toEqual({ 'Retry-After': '10' });
    expect(locked.body).toMatchObject({ code: 'TooManyRequests' });
  });

  it('tells a locked-out login when to retry (Retry-After, whole seconds)', () => {
    const lockedUntil = new Date(Date.now() + 89_500);
    const response = marketplaceHttpErrorFormat.render(
      MarketplaceError.tooManyLogins(lockedUntil),
      { ...context, path: '/user/kid_x/login' },
    );
    expect(response.status).toBe(429);
    expect(response.headers).toEqual({ 'Retry-After': '90' });
    expect(response.body).toMatchObject({ error: 'TooManyRequests' });
  });

  it('renders malformed bodies as JSONParseError and unexpected errors as a retryable 500', () => {
    const parse = marketplaceHttpErrorFormat.render(
      new TransportError(TransportErrorKind.MalformedBody, 'bad'),
      context,
    );
    expect(parse.status).toBe(400);
    expect((parse.body as { error: string }).error).toBe('JSONParseError');

    const internal = marketplaceHttpErrorFormat.render(
      new TransportError(TransportErrorKind.Internal, 'secret detail'),
      context,
    );
    expect(internal.status).toBe(500);
    expect(internal.body).toEqual({
      error: 'KinveyInternalErrorRetry',
      description: expect.any(String),
      debug: 'request id req-7',
    });
    expect(JSON.stringify(internal.body)).not.toContain('secret detail');
  });
});
