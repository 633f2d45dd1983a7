import type { ProjectRecord } from '../../projects/project.types';
import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import { postForm } from '../toolkit/layout';
import { noticeBanner } from '../toolkit/notices';
import { timeTag } from '../toolkit/relative-time';
import type { WebContext } from '../toolkit/web-context';
import { errorTrackingPage } from './error-tracking.page';
import type {
  ErrorRecord,
  EventSummary,
  Frequency,
} from '../../errors/error.types';
import { barChart, frequencySummary, hourLabel } from './frequency-charts';
import type { TagKeyDistribution } from '../../errors/tag-distribution';
import { tagDistributionView } from './tag-distribution.view';
import type { DailyCounts } from '../../errors/daily-counts';
import { dailyChart, dailySummary } from './daily-chart.view';
import type { ErrorEventAt } from '../../errors/error-events.service';
import { eventListHref, eventNavigationView } from './event-navigation.view';
import { eventRows } from './event-list.page';
import { eventView } from './event.view';
import { eventAttachmentsView } from './event-attachments.view';
import type { EventAttachmentsView } from './event-attachments.view';
import { ignoreCondition, ignoreSelect } from './error-bulk-actions.view';

export interface ErrorDetailView {
  readonly project: ProjectRecord;
  /** The viewer's access level (sidebar and buttons follow it). */
  readonly accessLevel: number;
  readonly error: ErrorRecord;
  readonly frequency: Frequency;
  /** The latest event by time, with the steps to the others; none kept: absent. */
  readonly latest: ErrorEventAt | undefined;
  readonly environment: string | null;
  readonly events: EventSummary[];
  /** Each tag key's top values over the kept events. */
  readonly tagDistribution: readonly TagKeyDistribution[];
  /** Events per UTC day, the last 30 days. */
  readonly days: DailyCounts;
  /** The latest event's attachments, when it has some. */
  readonly attachments?: EventAttachmentsView;
  readonly canTriage: boolean;
  readonly now: Date;
  readonly notice?: unknown;
}

const STATUS_BADGE: Record<ErrorRecord['status'], SafeHtml> = {
  unresolved: html`<span class="badge badge-danger">Unresolved</span>`,
  resolved: html`<span class="badge badge-success">Resolved</span>`,
  ignored: html`<span class="badge badge-neutral">Ignored</span>`,
};

/** Ignore, until changed or until one of Sentry's conditions. */
function ignoreForm(ctx: WebContext, base: string): SafeHtml {
  return postForm(
    ctx,
    `${base}/status`,
    html`<input type="hidden" name="status" value="ignored" />
      ${ignoreSelect('ignore-until')}
      <button type="submit" class="btn">Ignore</button>`,
    { className: 'inline-form ignore-form' },
  );
}

function actions(ctx: WebContext, view: ErrorDetailView): SafeHtml {
  const { error, project } = view;
  const base = `/projects/${project.id}/error_tracking/${error.id}`;
  const statusButton = (status: string, label: string, primary = false) =>
    postForm(
      ctx,
      `${base}/status`,
      html`<input type="hidden" name="status" value="${status}" /><button
          type="submit"
          class="btn${primary ? ' btn-confirm' : ''}"
        >
          ${label}
        </button>`,
    );
  const issue =
    error.issueIid !== null
      ? html`<a
          class="btn"
          href="/projects/${project.id}/issues/${error.issueIid}"
          >View issue #${error.issueIid}</a
        >`
      : view.canTriage
        ? postForm(
            ctx,
            `${base}/issue`,
            html`<button type="submit" class="btn">Create issue</button>`,
          )
        : null;
  if (!view.canTriage) return html`<div class="actions">${issue}</div>`;
  return html`<div class="actions">
    ${error.status === 'unresolved' ? [ignoreForm(ctx, base), statusButton('resolved', 'Resolve', true)] : statusButton('unresolved', error.status === 'resolved' ? 'Unresolve' : 'Undo ignore')}
    ${issue}
  </div>`;
}

function stat(
  label: string,
  value: SafeHtml | string | number,
  extra?: SafeHtml | string | null,
): SafeHtml {
  return html`<div class="stat">
    <p class="stat-label">${label}</p>
    <p class="stat-value">${value}</p>
    ${extra ? html`<p class="stat-extra">${extra}</p>` : null}
  </div>`;
}

function release(value: string | null): SafeHtml | null {
  return value ? html`Release <code>${value.slice(0, 40)}</code>` : null;
}

function chartTable(frequency: Frequency): SafeHtml {
  return html`<details class="chart-table">
    <summary>Show the hourly counts as a table</summary>
    <table>
      <caption class="visually-hidden">
        Events per hour, last 24 hours
      </caption>
      <thead>
        <tr>
          <th scope="col">Hour (UTC)</th>
          <th scope="col" class="num">Events</th>
        </tr>
      </thead>
      <tbody>
        ${frequency.map(
          ([hour, count]) =>
            html`<tr>
              <td>${hourLabel(hour)}</td>
              <td class="num">${count}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </details>`;
}

function tags(view: ErrorDetailView): SafeHtml {
  const entries: Array<[string, string | null]> = [
    ['level', view.error.level],
    ['logger', view.error.logger],
    ['environment', view.environment],
    ['release', view.error.lastRelease],
  ];
  return html`<ul class="tags">
    ${entries
      .filter((entry): entry is [string, string] => Boolean(entry[1]))
      .map(
        ([key, value]) =>
          html`<li class="tag">
            <span class="tag-key">${key}</span
            ><span class="tag-value">${value}</span>
          </li>`,
      )}
  </ul>`;
}

function occurrences(view: ErrorDetailView): SafeHtml {
  if (view.events.length === 0)
    return html`<p class="muted">No stored occurrences.</p>`;
  return html`${eventRows(view.project, view.error, view.events, view.now, 'Latest occurrences')}
    <p class="more">
      <a href="${eventListHref(view.project.id, view.error.id)}"
        >All events of this error</a
      >
    </p>`;
}

function latestEvent(view: ErrorDetailView): SafeHtml {
  const { latest, project, error } = view;
  if (!latest)
    return html`<section class="card" aria-labelledby="latest-heading">
      <div class="card-header"><h2 id="latest-heading">Latest event</h2></div>
      <p class="muted">No event of this error is kept.</p>
    </section>`;
  return html`<section class="latest-event" aria-labelledby="latest-heading">
    <div class="section-header">
      <h2 id="latest-heading">Latest event</h2>
      <span class="muted small"
        ><code class="event-id">${latest.eventId}</code>
        ${timeTag(latest.event.timestamp, view.now)}</span
      >
    </div>
    ${eventNavigationView(project.id, error.id, latest.eventId, latest.neighbours)}
    ${eventView({
      payload: latest.event.payload,
      timestamp: latest.event.timestamp,
      attachments: view.attachments
        ? eventAttachmentsView(view.attachments)
        : undefined,
    })}
  </section>`;
}

/** One error: status and actions, cards, the 24-hour and 30-day charts, the latest event, occurrences, tags and their distribution. */
export function errorDetailPage(
  ctx: WebContext,
  view: ErrorDetailView,
): string {
  const { project, error } = view;
  return errorTrackingPage(
    ctx,
    view,
    `${error.title} · Errors · ${project.name}`,
    [
      {
        label: 'Error Tracking',
        href: `/projects/${project.id}/error_tracking`,
      },
      { label: `Error ${error.id}` },
    ],
    html`${noticeBanner(view.notice)}
      <div class="page-header">
        <div>
          <h1>${error.title}</h1>
          <p class="subtitle">
            ${STATUS_BADGE[error.status]}
            ${error.culprit ? html`<span class="culprit">${error.culprit}</span>` : null}
          </p>
          ${ignoreCondition(error, view.now)}
        </div>
        ${actions(ctx, view)}
      </div>
      <section class="stats" aria-label="Summary">
        ${stat('Events', error.count)}
        ${stat('Users affected', error.userCount)}
        ${stat('First seen', timeTag(error.firstSeen, view.now), release(error.firstRelease))}
        ${stat('Last seen', timeTag(error.lastSeen, view.now), release(error.lastRelease))}
      </section>
      <section class="card" aria-labelledby="chart-heading">
        <div class="card-header">
          <h2 id="chart-heading">Last 24 hours</h2>
          <span class="muted small">${frequencySummary(view.frequency)}</span>
        </div>
        ${barChart(view.frequency, 'frequency-chart')}
        ${chartTable(view.frequency)}
      </section>
      <section class="card" aria-labelledby="days-heading">
        <div class="card-header">
          <h2 id="days-heading">Last 30 days</h2>
          <span class="muted small">${dailySummary(view.days)}</span>
        </div>
        ${dailyChart(view.days, 'days-chart')}
      </section>
      ${latestEvent(view)}
      <div class="grid-2">
        <section class="card" aria-labelledby="events-heading">
          <div class="card-header">
            <h2 id="events-heading">Latest occurrences</h2>
          </div>
          ${occurrences(view)}
        </section>
        <section class="card" aria-labelledby="tags-heading">
          <div class="card-header"><h2 id="tags-heading">Tags</h2></div>
          ${tags(view)}
        </section>
      </div>
      <section class="card" aria-labelledby="tag-dist-heading">
        <div class="card-header">
          <h2 id="tag-dist-heading">Tag distribution</h2>
          <span class="muted small">Over the kept events</span>
        </div>
        ${tagDistributionView(view.tagDistribution)}
      </section>`,
  );
}
