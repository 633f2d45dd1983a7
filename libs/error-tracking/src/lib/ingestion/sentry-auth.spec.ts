import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import {
  hasKeyOutsideBody,
  keyFromDsn,
  keyFromSentryHeader,
  resolvePublicKey,
} from './sentry-auth';

describe('Sentry authentication', () => {
  it('reads X-Sentry-Auth in any order and spacing, ignoring the secret', () => {
    expect(keyFromSentryHeader('Sentry sentry_key=k1, sentry_version=7')).toBe(
      'k1',
    );
    expect(
      keyFromSentryHeader(
        'sentry sentry_version=7,sentry_client=a/1,  sentry_key=k2 ,sentry_secret=s',
      ),
    ).toBe('k2');
    expect(keyFromSentryHeader('Bearer x')).toBeUndefined();
    expect(keyFromSentryHeader(undefined)).toBeUndefined();
  });

  it('reads the key of a DSN', () => {
    expect(
      keyFromDsn('https://glet_ab@host:9/api/v4/error_tracking/collector/3'),
    ).toBe('glet_ab');
    expect(keyFromDsn('not a url')).toBeUndefined();
    expect(keyFromDsn(42)).toBeUndefined();
  });

  it("lets the request's keys decide over the envelope dsn, which counts alone", () => {
    expect(
      resolvePublicKey({
        xSentryAuth: 'Sentry sentry_key=k',
        dsn: 'http://other@h/7',
      }),
    ).toBe('k');
    expect(resolvePublicKey({ dsn: 'http://d@h/1' })).toBe('d');
  });

  it("requires agreement between the request's transports", () => {
    expect(
      resolvePublicKey({
        query: 'k',
        xSentryAuth: 'Sentry sentry_key=k',
        dsn: 'http://k@h/1',
      }),
    ).toBe('k');
    expect(() =>
      resolvePublicKey({ query: 'a', authorization: 'Sentry sentry_key=b' }),
    ).toThrow(
      expect.objectContaining({ code: ErrorTrackingErrorCode.BadRequest }),
    );
    expect(() => resolvePublicKey({ query: ['a', 'b'] })).toThrow(
      expect.objectContaining({ code: ErrorTrackingErrorCode.BadRequest }),
    );
    expect(() => resolvePublicKey({})).toThrow(
      expect.objectContaining({ code: ErrorTrackingErrorCode.Unauthorized }),
    );
  });

  it('tells whether a key can be checked before reading the body', () => {
    expect(hasKeyOutsideBody({ query: 'k' })).toBe(true);
    expect(hasKeyOutsideBody({ authorization: 'Bearer x' })).toBe(false);
  });
});
