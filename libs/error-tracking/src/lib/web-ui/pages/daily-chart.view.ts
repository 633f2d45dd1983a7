import type { SafeHtml } from '../../html/html';
import type { DailyCounts } from '../../errors/daily-counts';
import { labelledBarChart } from './frequency-charts';

function dayLabel(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 10);
}

function eventsText(count: number): string {
  return `${count} event${count === 1 ? '' : 's'}`;
}

/** The 30-day chart's one-line text alternative. */
export function dailySummary(days: DailyCounts): string {
  const total = days.reduce((sum, [, count]) => sum + count, 0);
  const peak = days.reduce((best, day) => (day[1] > best[1] ? day : best), [
    0, 0,
  ] as [number, number]);
  return total === 0
    ? 'No events in the last 30 days'
    : `${eventsText(total)} in the last 30 days, at most ${peak[1]} in one day (${dayLabel(peak[0])})`;
}

/**
 * Events per UTC day over 30 days, oldest left: drawn as the 24-hour chart
 * is, with weekly marks (none so close to "today" that the two overlap).
 */
export function dailyChart(days: DailyCounts, id: string): SafeHtml {
  return labelledBarChart({
    id,
    className: 'days-chart',
    title: 'Events per day, last 30 days',
    summary: dailySummary(days),
    buckets: days.map(([day, count]) => ({ label: dayLabel(day), count })),
    mark: (i, last) =>
      last
        ? 'today'
        : i % 7 === 0 && i < days.length - 4
          ? dayLabel(days[i]?.[0] ?? 0).slice(5)
          : undefined,
  });
}
