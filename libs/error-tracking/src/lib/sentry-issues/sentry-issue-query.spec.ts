import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import { parseIssueQuery, parseIssueSort } from './sentry-issue-query';

describe("parseIssueQuery (Sentry's issue search, the stored part)", () => {
  it('is is:unresolved when absent and every status when empty', () => {
    expect(parseIssueQuery(undefined)).toEqual({ status: 'unresolved' });
    expect(parseIssueQuery('')).toEqual({});
  });

  it('reads statuses, environment, release and quoted free text', () => {
    expect(
      parseIssueQuery(
        'is:muted environment:production release:"shop 1.0" cart "is empty"',
      ),
    ).toEqual({
      status: 'ignored',
      environment: 'production',
      release: 'shop 1.0',
      search: 'cart is empty',
    });
  });

  it.each([
    ['assigned:me', 'assigned'],
    ['is:unresolved is:resolved', 'is:resolved'],
    ['is:bookmarked', 'is:bookmarked'],
    ['environment:a environment:b', 'one environment'],
    ['x'.repeat(201), 'at most 200'],
  ])('refuses %s rather than widening the search', (query, detail) => {
    expect(() => parseIssueQuery(query)).toThrow(
      expect.objectContaining({
        code: ErrorTrackingErrorCode.BadRequest,
        message: expect.stringContaining(detail),
      }),
    );
  });

  it("maps Sentry's sorts and refuses the others", () => {
    expect(parseIssueSort(undefined)).toBe('last_seen');
    expect(parseIssueSort('new')).toBe('first_seen');
    expect(parseIssueSort('freq')).toBe('frequency');
    expect(() => parseIssueSort('priority')).toThrow(/sort: one of/);
  });
});
