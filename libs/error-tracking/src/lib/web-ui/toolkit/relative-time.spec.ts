import { relativeTime, timeTag, utcTimestamp } from './relative-time';

const now = new Date('2026-11-22T12:00:00.000Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('relative time', () => {
  it.each([
    [10, 'just now'],
    [60, '1 minute ago'],
    [150, '2 minutes ago'],
    [3 * 3600, '3 hours ago'],
    [86_400, '1 day ago'],
    [15 * 86_400, '2 weeks ago'],
    [70 * 86_400, '2 months ago'],
    [800 * 86_400, '2 years ago'],
    [-7200, 'in 2 hours'],
  ])('%i seconds before now reads "%s"', (seconds, text) => {
    expect(relativeTime(ago(seconds), now)).toBe(text);
  });

  it('carries the full UTC timestamp in the title of a <time> element', () => {
    const date = ago(3 * 3600);
    expect(utcTimestamp(date)).toBe('2026-11-22 09:00:00 UTC');
    const tag = timeTag(date, now).value.replace(/\s+/g, ' ');
    expect(tag).toMatch(/^<time /);
    expect(tag).toContain('datetime="2026-11-22T09:00:00.000Z"');
    expect(tag).toContain('title="2026-11-22 09:00:00 UTC"');
    expect(tag).toMatch(/>3 hours ago<\/time ?>$/);
  });
});
