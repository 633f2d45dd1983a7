import { ErrorTrackingError } from './error-tracking.errors';

describe('ErrorTrackingError plain messages', () => {
  it('says which one is missing in plain words, keeping GitLab’s text for the wire', () => {
    const named = ErrorTrackingError.notFound('User', 'No user named ana.');
    expect(named.message).toBe('404 User Not Found');
    expect(named.plainMessage).toBe('No user named ana.');
    expect(ErrorTrackingError.notFound('Project').plainMessage).toBe(
      'No such project.',
    );
    expect(ErrorTrackingError.notFound().plainMessage).toBe('Not found.');
  });

  it('reads any other error as its message', () => {
    expect(
      ErrorTrackingError.conflict('Username has already been taken')
        .plainMessage,
    ).toBe('Username has already been taken');
  });
});
