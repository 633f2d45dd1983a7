import { fillDays } from '../../errors/daily-counts';
import { dailyChart, dailySummary } from './daily-chart.view';

const now = new Date('2026-11-29T10:30:00.000Z');
const today = Date.parse('2026-11-29T00:00:00.000Z') / 1000;
const days = fillDays(now, [
  [today, 4],
  [today - 3 * 86_400, 2],
]);

describe('the 30-day chart', () => {
  it('titles one bar per UTC day, oldest first', () => {
    const svg = dailyChart(days, 'd').value;
    const titles = [...svg.matchAll(/<title>([^<]*)<\/title/g)].map(
      (m) => m[1],
    );
    expect(titles).toHaveLength(30);
    expect(titles[0]).toBe('2026-10-31: 0 events');
    expect(titles[26]).toBe('2026-11-26: 2 events');
    expect(titles[29]).toBe('2026-11-29: 4 events');
    expect(svg).toContain('>Events per day, last 30 days</title>');
    expect(svg).toContain('>today</text');
  });

  it('sums the days as its text alternative', () => {
    expect(dailySummary(days)).toBe(
      '6 events in the last 30 days, at most 4 in one day (2026-11-29)',
    );
    expect(dailySummary(fillDays(now, []))).toBe(
      'No events in the last 30 days',
    );
  });
});
