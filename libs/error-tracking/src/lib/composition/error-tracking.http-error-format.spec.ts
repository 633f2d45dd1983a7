import { TransportError, TransportErrorKind } from '@quitanda/kernel';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import { errorTrackingHttpErrorFormat } from './error-tracking.http-error-format';

const api = { requestId: 'r', path: '/api/v4/projects/9' };
const collector = {
  requestId: 'r',
  path: '/api/v4/error_tracking/collector/api/1/envelope/',
};

describe('errorTrackingHttpErrorFormat', () => {
  it('owns /api/v4', () => {
    expect(errorTrackingHttpErrorFormat.owns('/api/v4/projects/1')).toBe(true);
    expect(errorTrackingHttpErrorFormat.owns('/api/v5')).toBe(false);
  });

  it("answers GitLab's bodies on the REST API", () => {
    const cases: Array<[ErrorTrackingError, number, unknown]> = [
      [
        ErrorTrackingError.projectNotFound(),
        404,
        { message: '404 Project Not Found' },
      ],
      [
        ErrorTrackingError.notFound('Issue'),
        404,
        { message: '404 Issue Not Found' },
      ],
      [ErrorTrackingError.unauthorized(), 401, { message: '401 Unauthorized' }],
      [ErrorTrackingError.forbidden(), 403, { message: '403 Forbidden' }],
      [
        ErrorTrackingError.invalidParameter('active is missing'),
        400,
        { error: 'active is missing' },
      ],
      [
        ErrorTrackingError.conflict('Member already exists'),
        409,
        { message: 'Member already exists' },
      ],
      [
        ErrorTrackingError.validation({ path: ['has already been taken'] }),
        400,
        { message: { path: ['has already been taken'] } },
      ],
      [
        ErrorTrackingError.insufficientScope(),
        403,
        {
          error: 'insufficient_scope',
          error_description: expect.any(String),
          scope: 'api',
        },
      ],
    ];
    for (const [error, status, body] of cases) {
      const rendered = errorTrackingHttpErrorFormat.render(error, api);
      expect(rendered.status).toBe(status);
      expect(rendered.body).toEqual(body);
    }
  });

  it('renders transport failures GitLab-style, validation fields joined', () => {
    const invalid = errorTrackingHttpErrorFormat.render(
      new TransportError(TransportErrorKind.InvalidRequest, 'x', [
        { field: 'name', message: 'is missing' },
        { field: 'path', message: 'is invalid' },
      ]),
      api,
    );
    expect(invalid.body).toEqual({ error: 'name is missing, path is invalid' });
    const unknown = errorTrackingHttpErrorFormat.render(
      new TransportError(TransportErrorKind.RouteNotFound, 'x'),
      api,
    );
    expect(unknown.body).toEqual({ error: '404 Not Found' });
    const internal = errorTrackingHttpErrorFormat.render(
      new TransportError(TransportErrorKind.Internal, 'password=hunter2'),
      api,
    );
    expect(internal.body).toEqual({ message: '500 Internal Server Error' });
  });

  it("answers Sentry's detail bodies with CORS on the collector", () => {
    const response = errorTrackingHttpErrorFormat.render(
      new TransportError(
        TransportErrorKind.PayloadTooLarge,
        'envelope too large',
      ),
      collector,
    );
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ detail: 'envelope too large' });
    expect(response.headers).toMatchObject({
      'Access-Control-Allow-Origin': '*',
    });
  });

  it('adds Sentry rate-limit headers to a 429 and Retry-After to a 503', () => {
    const limited = errorTrackingHttpErrorFormat.render(
      ErrorTrackingError.rateLimited(17),
      collector,
    );
    expect(limited.status).toBe(429);
    expect(limited.headers).toMatchObject({
      'Retry-After': '17',
      'X-Sentry-Rate-Limits': '17::key',
    });
    const down = errorTrackingHttpErrorFormat.render(
      new TransportError(
        TransportErrorKind.ServiceUnavailable,
        'db down',
        [],
        5,
      ),
      collector,
    );
    expect(down.status).toBe(503);
    expect(down.headers).toMatchObject({ 'Retry-After': '5' });
    expect(down.body).toEqual({ detail: 'db down' });
  });
});
