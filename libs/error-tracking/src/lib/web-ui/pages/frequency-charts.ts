import { escapeHtml, html, trustedHtml } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import type { Frequency } from '../../errors/error.types';

/** `HH:MM` of a UTC time of day, from seconds since the epoch. */
function clockTime(unixSeconds: number): string {
  const minutes = Math.floor(unixSeconds / 60);
  const hh = Math.floor(minutes / 60) % 24;
  const mm = minutes % 60;
  return `${hh < 10 ? '0' : ''}${hh}:${mm < 10 ? '0' : ''}${mm}`;
}

/**
 * `09:00–10:00 UTC` for the hour starting at `unixSeconds`. By arithmetic:
 * a list page labels 480 bars, and two `Date`s with their ISO strings for
 * each were a tenth of its CPU.
 */
export function hourLabel(unixSeconds: number): string {
  return `${clockTime(unixSeconds)}–${clockTime(unixSeconds + 3600)} UTC`;
}

function eventsText(count: number): string {
  return `${count} event${count === 1 ? '' : 's'}`;
}

/** Sum of the counts: the chart's one-line text alternative. */
export function frequencySummary(frequency: Frequency): string {
  const total = frequency.reduce((sum, [, count]) => sum + count, 0);
  const peak = frequency.reduce(
    (best, bucket) => (bucket[1] > best[1] ? bucket : best),
    [0, 0] as [number, number],
  );
  return total === 0
    ? 'No events in the last 24 hours'
    : `${eventsText(total)} in the last 24 hours, at most ${peak[1]} in one hour (${hourLabel(peak[0])})`;
}

/** One bar of a chart: its events and the period its `<title>` names. */
export interface ChartBucket {
  readonly label: string;
  readonly count: number;
}

function hourBuckets(frequency: Frequency): ChartBucket[] {
  return frequency.map(([hour, count]) => ({ label: hourLabel(hour), count }));
}

/**
 * One `<g>` per bucket: its `<title>`, a full-height hover target and the
 * bar. Built as one compact string, not a template per bar: a list page
 * draws 480 of them, and the indented template markup was most of its
 * 170 KB. Labels are this module's own text; only numbers are added.
 */
function bars(
  buckets: readonly ChartBucket[],
  box: { width: number; height: number; top: number; gap: number },
): SafeHtml {
  const max = Math.max(1, ...buckets.map(({ count }) => count));
  const slot = box.width / buckets.length;
  const width = +slot.toFixed(2);
  const fillWidth = +(slot - box.gap).toFixed(2);
  let out = '';
  buckets.forEach(({ label, count }, i) => {
    const x = +(i * slot).toFixed(2);
    out += `<g class="bar"><title>${escapeHtml(label)}: ${eventsText(count)}</title><rect class="bar-hit" x="${x}" y="${box.top}" width="${width}" height="${box.height}"></rect>`;
    if (count > 0) {
      const h = Math.max(1, (count / max) * box.height);
      const y = +(box.top + box.height - h).toFixed(2);
      out += `<rect class="bar-fill" x="${+(x + box.gap / 2).toFixed(2)}" y="${y}" width="${fillWidth}" height="${+h.toFixed(2)}" data-count="${count}"></rect>`;
    }
    out += '</g>';
  });
  return trustedHtml(out);
}

/** The list rows' 24-hour sparkline, oldest hour left. */
export function sparkline(frequency: Frequency): SafeHtml {
  const label = frequencySummary(frequency);
  return html`<svg
    class="sparkline"
    viewBox="0 0 96 24"
    width="96"
    height="24"
    role="img"
    aria-label="${label}"
    focusable="false"
  >
    <line class="spark-base" x1="0" x2="96" y1="23.5" y2="23.5"></line>
    ${bars(hourBuckets(frequency), { width: 96, height: 22, top: 1, gap: 1 })}
  </svg>`;
}

/** Width of one digit of an axis label at its largest font size, in SVG units. */
const AXIS_DIGIT_WIDTH = 14;

/**
 * The detail page's bar graph: one bar per hour of the last 24 (oldest
 * left), each with its hour and count in a `<title>`, hour marks below, the
 * peak on the y axis; the text alternative is `frequencySummary` plus the
 * table the page renders beside it.
 */
export function barChart(frequency: Frequency, id: string): SafeHtml {
  return labelledBarChart({
    id,
    className: 'bar-chart',
    title: 'Events per hour, last 24 hours',
    summary: frequencySummary(frequency),
    buckets: hourBuckets(frequency),
    // Every sixth hour is marked; "now" ends at the right edge.
    mark: (i, last) =>
      last
        ? 'now'
        : i % 6 === 0
          ? new Date((frequency[i]?.[0] ?? 0) * 1000)
              .toISOString()
              .slice(11, 16)
          : undefined,
  });
}

/**
 * A bar graph of consecutive periods (oldest left), each bar's period and
 * count in its `<title>`, the marks `mark` names below (the last one ends
 * at the right edge so it is never cut off), the peak on the y axis, and
 * `title` and `summary` as its text alternative.
 */
export function labelledBarChart(chart: {
  readonly id: string;
  /** The svg's class: `bar-chart` for the 24-hour chart, which pages and tests find by it. */
  readonly className: string;
  readonly title: string;
  readonly summary: string;
  readonly buckets: readonly ChartBucket[];
  readonly mark: (index: number, last: boolean) => string | undefined;
}): SafeHtml {
  const { id, buckets } = chart;
  const width = 720;
  const max = Math.max(0, ...buckets.map(({ count }) => count));
  // Room for the labels at their largest (ui.css draws them at 22 units on
  // a phone, where the chart is scaled down): the y axis's widest number
  // on the left, a line above the plot, the marks below.
  const left = 10 + String(max).length * AXIS_DIGIT_WIDTH;
  const right = 6;
  const plot = { width: width - left - right, height: 150, top: 20, gap: 4 };
  const height = plot.top + plot.height + 32;
  const slot = plot.width / buckets.length;
  const marks = buckets.flatMap((_, i) => {
    const last = i === buckets.length - 1;
    const text = chart.mark(i, last);
    if (text === undefined) return [];
    const x = last ? left + plot.width : left + i * slot + slot / 2;
    return [
      html`<text
        class="axis"
        x="${+x.toFixed(2)}"
        y="${plot.top + plot.height + 24}"
        text-anchor="${last ? 'end' : 'middle'}"
        >${text}</text
      >`,
    ];
  });
  return html`<svg
    class="${chart.className}"
    viewBox="0 0 ${width} ${height}"
    role="img"
    aria-labelledby="${id}-title ${id}-desc"
    preserveAspectRatio="xMidYMid meet"
  >
    <title id="${id}-title">${chart.title}</title>
    <desc id="${id}-desc">${chart.summary}</desc>
    <line
      class="baseline"
      x1="${left}"
      x2="${left + plot.width}"
      y1="${plot.top + plot.height + 0.5}"
      y2="${plot.top + plot.height + 0.5}"
    ></line>
    <text class="axis" x="${left - 6}" y="${plot.top + 4}" text-anchor="end">
      ${max}
    </text>
    <text
      class="axis"
      x="${left - 6}"
      y="${plot.top + plot.height}"
      text-anchor="end"
    >
      0
    </text>
    <g transform="translate(${left} 0)">${bars(buckets, plot)}</g>
    ${marks}
  </svg>`;
}
