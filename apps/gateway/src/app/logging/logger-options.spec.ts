import { scrubUrl } from './logger-options';

describe('scrubUrl', () => {
  it('redacts credentials carried in query strings', () => {
    expect(
      scrubUrl(
        '/api/4/envelope/?sentry_version=7&sentry_key=glet_abc&sentry_client=x',
      ),
    ).toBe(
      '/api/4/envelope/?sentry_version=7&sentry_key=[REDACTED]&sentry_client=x',
    );
    expect(scrubUrl('/blob/kid_1/upload/f?expires=1&signature=deadbeef')).toBe(
      '/blob/kid_1/upload/f?expires=1&signature=[REDACTED]',
    );
    expect(scrubUrl('/x?TOKEN=1&other=2')).toBe('/x?TOKEN=[REDACTED]&other=2');
  });

  it('leaves other URLs alone', () => {
    expect(scrubUrl('/events?limit=5&q=keyboard')).toBe(
      '/events?limit=5&q=keyboard',
    );
    expect(scrubUrl(undefined)).toBeUndefined();
  });
});
