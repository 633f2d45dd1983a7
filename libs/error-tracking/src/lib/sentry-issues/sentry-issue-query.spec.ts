import { parseIssueSort } from './sentry-issue-query';

describe("parseIssueSort (Sentry's issue sorts)", () => {
  it("maps Sentry's sorts and refuses the others", () => {
    expect(parseIssueSort(undefined)).toBe('last_seen');
    expect(parseIssueSort('new')).toBe('first_seen');
    expect(parseIssueSort('freq')).toBe('frequency');
    expect(() => parseIssueSort('priority')).toThrow(/sort: one of/);
  });
});
