import { TransportError, TransportErrorKind } from '@quitanda/kernel';

import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from './error-tracking.errors';
import { errorTrackingHttpErrorFormat } from './error-tracking.http-error-format';

describe('errorTrackingHttpErrorFormat', () => {
  it('owns /api/v4', () => {
    expect(errorTrackingHttpErrorFormat.owns('/api/v4/projects/1')).toBe(true);
    expect(errorTrackingHttpErrorFormat.owns('/api/v5')).toBe(false);
  });

  it("answers GitLab's bodies on the REST API", () => {
    const notFound = errorTrackingHttpErrorFormat.render(
      new ErrorTrackingError(
        ErrorTrackingErrorCode.ProjectNotFound,
        'Project Not Found',
      ),
      { requestId: 'r', path: '/api/v4/projects/9' },
    );
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ message: '404 Not Found' });

    const missing = errorTrackingHttpErrorFormat.render(
      new ErrorTrackingError(
        ErrorTrackingErrorCode.InvalidParameter,
        'active is missing',
      ),
      { requestId: 'r', path: '/api/v4/projects/9/error_tracking/settings' },
    );
    expect(missing.body).toEqual({ error: 'active is missing' });
  });

  it("answers Sentry's detail bodies with CORS on the collector", () => {
    const response = errorTrackingHttpErrorFormat.render(
      new TransportError(
        TransportErrorKind.PayloadTooLarge,
        'envelope too large',
      ),
      {
        requestId: 'r',
        path: '/api/v4/error_tracking/collector/api/1/envelope/',
      },
    );
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ detail: 'envelope too large' });
    expect(response.headers).toMatchObject({
      'Access-Control-Allow-Origin': '*',
    });
  });
});
