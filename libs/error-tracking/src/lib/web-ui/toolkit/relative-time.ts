import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';

const UNITS: ReadonlyArray<[string, number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** `2026-11-22 07:13:57 UTC` */
export function utcTimestamp(date: Date): string {
  return `${date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '')} UTC`;
}

/** "just now", "3 hours ago", "in 2 days" (clock skew), relative to `now`. */
export function relativeTime(date: Date, now: Date): string {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    const n = Math.floor(abs / size);
    if (n >= 1) {
      const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return seconds >= 0 ? `${text} ago` : `in ${text}`;
    }
  }
  return 'just now';
}

/** A `<time>` showing the relative time, the full UTC timestamp on hover. */
export function timeTag(date: Date, now: Date): SafeHtml {
  return html`<time
    datetime="${date.toISOString()}"
    title="${utcTimestamp(date)}"
    >${relativeTime(date, now)}</time
  >`;
}
