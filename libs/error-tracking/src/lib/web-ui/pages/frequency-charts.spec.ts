import type { Frequency } from '../../errors/error.types';
import {
  barChart,
  frequencySummary,
  hourLabel,
  sparkline,
} from './frequency-charts';

const start = Date.parse('2026-11-21T13:00:00Z') / 1000;
const frequency: Frequency = Array.from({ length: 24 }, (_, i) => [
  start + i * 3600,
  i === 23 ? 4 : i === 20 ? 2 : 0,
]);

function titles(svg: string): string[] {
  return [...svg.matchAll(/<title>([^<]*)<\/title/g)].map((m) => m[1] ?? '');
}

describe('charts', () => {
  it('labels an hour in UTC', () => {
    expect(hourLabel(start)).toBe('13:00–14:00 UTC');
    expect(hourLabel(Date.UTC(2026, 0, 1, 23, 0) / 1000)).toBe(
      '23:00–00:00 UTC',
    );
    expect(hourLabel(Date.UTC(2026, 0, 1, 9, 5, 30) / 1000)).toBe(
      '09:05–10:05 UTC',
    );
  });

  it('draws one titled bar per hour, oldest left, heights proportional to counts', () => {
    const svg = barChart(frequency, 'c').value;
    const hours = titles(svg);
    expect(hours).toHaveLength(24);
    expect(hours[0]).toBe('13:00–14:00 UTC: 0 events');
    expect(hours[20]).toBe('09:00–10:00 UTC: 2 events');
    expect(hours[23]).toBe('12:00–13:00 UTC: 4 events');
    const fills = [
      ...svg.matchAll(
        /class="bar-fill" x="([\d.]+)" y="[\d.]+" width="[\d.]+" height="([\d.]+)" data-count="(\d+)"/g,
      ),
    ];
    expect(fills.map((m) => Number(m[3]))).toEqual([2, 4]);
    expect(Number(fills[0]?.[1])).toBeLessThan(Number(fills[1]?.[1]));
    expect(Number(fills[1]?.[2])).toBe(150);
    expect(Number(fills[0]?.[2])).toBe(75);
  });

  it('gives the chart a text alternative', () => {
    const svg = barChart(frequency, 'c').value;
    expect(svg).toContain('role="img"');
    expect(svg).toContain('aria-labelledby="c-title c-desc"');
    expect(svg).toContain(
      '<desc id="c-desc">6 events in the last 24 hours, at most 4 in one hour (12:00–13:00 UTC)</desc>',
    );
    expect(frequencySummary(frequency.map(([h]) => [h, 0]))).toBe(
      'No events in the last 24 hours',
    );
  });

  it('draws the sparkline with the same hours and an aria-label', () => {
    const svg = sparkline(frequency).value;
    expect(titles(svg)).toHaveLength(24);
    expect(svg).toContain('aria-label="6 events in the last 24 hours');
    expect(svg.match(/bar-fill/g)).toHaveLength(2);
  });
});
