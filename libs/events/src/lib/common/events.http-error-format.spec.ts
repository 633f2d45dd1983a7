import { TransportError, TransportErrorKind } from '@quitanda/kernel';

import { EventsError } from './events.errors';
import { eventsHttpErrorFormat } from './events.http-error-format';

const context = { requestId: 'req-1', path: '/events' };

describe('eventsHttpErrorFormat', () => {
  it('owns /events and nothing else', () => {
    expect(eventsHttpErrorFormat.owns('/events')).toBe(true);
    expect(eventsHttpErrorFormat.owns('/events/abc/test')).toBe(true);
    expect(eventsHttpErrorFormat.owns('/eventsx')).toBe(false);
    expect(eventsHttpErrorFormat.owns('/appdata/kid_x')).toBe(false);
  });

  it('renders domain errors as problem+json with field errors', () => {
    const response = eventsHttpErrorFormat.render(
      EventsError.validation([{ field: 'title', message: 'is required' }]),
      context,
    );
    expect(response.status).toBe(400);
    expect(response.contentType).toMatch(/^application\/problem\+json/);
    expect(response.body).toEqual({
      type: 'urn:quitanda:problem:validation-failed',
      title: 'Validation failed',
      status: 400,
      detail: 'The request has invalid fields.',
      errors: [{ field: 'title', message: 'is required' }],
      request_id: 'req-1',
    });
  });

  it('omits errors when there are no field problems and challenges for the token', () => {
    const response = eventsHttpErrorFormat.render(
      EventsError.writeTokenRequired(),
      context,
    );
    expect(response.status).toBe(401);
    expect(response.headers).toEqual({
      'WWW-Authenticate': 'Bearer realm="events"',
    });
    expect(response.body).not.toHaveProperty('errors');
  });

  it.each([
    [TransportErrorKind.MalformedBody, 400],
    [TransportErrorKind.UnsupportedMediaType, 415],
    [TransportErrorKind.PayloadTooLarge, 413],
    [TransportErrorKind.RouteNotFound, 404],
    [TransportErrorKind.InvalidRequest, 400],
    [TransportErrorKind.ServiceUnavailable, 503],
    [TransportErrorKind.Internal, 500],
  ])('renders transport failure %s as %i', (kind, status) => {
    const response = eventsHttpErrorFormat.render(
      new TransportError(kind, 'secret internals'),
      context,
    );
    expect(response.status).toBe(status);
    expect((response.body as { status: number }).status).toBe(status);
  });

  it('never leaks the message of an unexpected error', () => {
    const response = eventsHttpErrorFormat.render(
      new TransportError(
        TransportErrorKind.Internal,
        'password=hunter2 at line 3',
      ),
      context,
    );
    expect(JSON.stringify(response.body)).not.toContain('hunter2');
    expect((response.body as { detail: string }).detail).toContain('req-1');
  });
});
