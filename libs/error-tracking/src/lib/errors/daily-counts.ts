/** Days the error page's long chart covers: today (UTC) and the 29 before it. */
export const CHART_DAYS = 30;
const DAY_MS = 86_400_000;

/** `[unix seconds of the UTC day's start, events]`, oldest first. */
export type DailyCounts = Array<[number, number]>;

/** The first day the chart covers, at its UTC midnight. */
export function firstChartDay(now: Date): Date {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return new Date(today - (CHART_DAYS - 1) * DAY_MS);
}

/** Every day of the chart, those without events as 0. */
export function fillDays(
  now: Date,
  counted: ReadonlyArray<readonly [number, number]>,
): DailyCounts {
  const first = firstChartDay(now).getTime() / 1000;
  const byDay = new Map(counted.map(([day, n]) => [day, n]));
  return Array.from({ length: CHART_DAYS }, (_, i) => {
    const day = first + i * 86_400;
    return [day, byDay.get(day) ?? 0];
  });
}
