import { CHART_DAYS, fillDays, firstChartDay } from './daily-counts';

describe('daily counts', () => {
  const now = new Date('2026-11-29T10:30:00.000Z');

  it('starts 29 UTC days before today', () => {
    expect(firstChartDay(now)).toEqual(new Date('2026-10-31T00:00:00.000Z'));
  });

  it('fills every day, oldest first, today last, days without events as 0', () => {
    const today = Date.parse('2026-11-29T00:00:00.000Z') / 1000;
    const days = fillDays(now, [
      [today, 4],
      [today - 2 * 86_400, 1],
    ]);
    expect(days).toHaveLength(CHART_DAYS);
    expect(days[0]).toEqual([Date.parse('2026-10-31T00:00:00.000Z') / 1000, 0]);
    expect(days.slice(-3)).toEqual([
      [today - 2 * 86_400, 1],
      [today - 86_400, 0],
      [today, 4],
    ]);
  });
});
