import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import { isJsonObject } from '../../sentry-event/event-json';
import type { JsonObject } from '../../sentry-event/event-json';
import { utcTimestamp } from '../toolkit/relative-time';
import { entriesOf, eventSection, keyValues } from './event-values.view';

/** Breadcrumbs a page shows: the latest ones (SDKs keep 100 by default). */
export const BREADCRUMBS_SHOWN = 200;

function crumbsOf(value: unknown): JsonObject[] {
  const list = isJsonObject(value) ? value['values'] : value;
  return Array.isArray(list) ? list.filter(isJsonObject) : [];
}

/** A breadcrumb's time: unix seconds, or an RFC 3339 string. */
export function crumbTime(value: unknown): Date | null {
  const date =
    typeof value === 'number'
      ? new Date(value * 1000)
      : typeof value === 'string'
        ? new Date(/^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : value)
        : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** "-2.35 s", "-3 min 5 s", "-2 h 10 min": how long before the event. */
export function offsetText(at: Date, event: Date): string {
  const ms = at.getTime() - event.getTime();
  const sign = ms < 0 ? '-' : '+';
  const abs = Math.abs(ms);
  if (abs < 60_000) return `${sign}${(abs / 1000).toFixed(2)} s`;
  const minutes = Math.floor(abs / 60_000);
  if (minutes < 60)
    return `${sign}${minutes} min ${Math.floor((abs % 60_000) / 1000)} s`;
  return `${sign}${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function crumbView(crumb: JsonObject, eventTime: Date): SafeHtml {
  const at = crumbTime(crumb['timestamp']);
  const level = text(crumb['level']) ?? 'info';
  const data = entriesOf(crumb['data']);
  return html`<li class="crumb crumb-${level.replace(/[^a-z]/g, '')}">
    <div class="crumb-meta">
      ${
        at
          ? html`<time
              class="crumb-time"
              datetime="${at.toISOString()}"
              title="${utcTimestamp(at)}"
              >${offsetText(at, eventTime)}</time
            >`
          : html`<span class="crumb-time muted">—</span>`
      }
      <span class="crumb-category"
        >${text(crumb['category']) ?? text(crumb['type']) ?? 'default'}</span
      >
      <span class="badge badge-neutral crumb-level">${level}</span>
    </div>
    ${text(crumb['message']) ? html`<p class="crumb-message">${text(crumb['message'])}</p>` : null}
    ${data.length > 0 ? keyValues(data, 'Breadcrumb data') : null}
  </li>`;
}

/**
 * The breadcrumbs as a timeline, oldest first, each at its time relative
 * to the event's; only the latest `BREADCRUMBS_SHOWN` of a long trail.
 */
export function breadcrumbsView(
  payload: JsonObject,
  eventTime: Date,
): SafeHtml {
  const crumbs = crumbsOf(payload['breadcrumbs']);
  if (crumbs.length === 0) return html``;
  const shown = crumbs.slice(-BREADCRUMBS_SHOWN);
  const hidden = crumbs.length - shown.length;
  return eventSection(
    'event-breadcrumbs-heading',
    `Breadcrumbs (${crumbs.length})`,
    html`${hidden > 0 ? html`<p class="muted small">The ${hidden} oldest are not shown.</p>` : null}
      <ol class="crumb-timeline">
        ${shown.map((crumb) => crumbView(crumb, eventTime))}
      </ol>`,
  );
}
