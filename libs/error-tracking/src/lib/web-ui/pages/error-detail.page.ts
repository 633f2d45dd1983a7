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
import type { StackTraceEntry } from '../../errors/stack-trace';
import { stackTraceView } from './stack-trace.view';
import type { TagKeyDistribution } from '../../errors/tag-distribution';
import { tagDistributionView } from './tag-distribution.view';
import type { DailyCounts } from '../../errors/daily-counts';
import { dailyChart, dailySummary } from './daily-chart.view';

export interface ErrorDetailView {
  readonly project: ProjectRecord;
  /** The viewer's access level (sidebar and buttons follow it). */
  readonly accessLevel: number;
  readonly error: ErrorRecord;
  readonly frequency: Frequency;
  readonly stackTrace: StackTraceEntry[];
  /** Whether the trace's last frame is an exception's crash frame. */
  readonly stackTraceCrashed: boolean;
  readonly environment: string | null;
  readonly events: EventSummary[];
  /** Each tag key's top values over the kept events. */
  readonly tagDistribution: readonly TagKeyDistribution[];
  /** Events per UTC day, the last 30 days. */
  readonly days: DailyCounts;
  readonly canTriage: boolean;
  readonly now: Date;
  readonly notice?: unknown;
}

const STATUS_BADGE: Record<ErrorRecord['status'], SafeHtml> = {
  unresolved: html`<span class="badge badge-danger">Unresolved</span>`,
  resolved: html`<span class="badge badge-success">Resolved</span>`,
  ignored: html`<span class="badge badge-neutral">Ignored</span>`,
};

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
    ${error.status === 'unresolved' ? [statusButton('ignored', 'Ignore'), statusButton('resolved', 'Resolve', true)] : statusButton('unresolved', error.status === 'resolved' ? 'Unresolve' : 'Undo ignore')}
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

function userOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '—';
  const user = value as Record<string, unknown>;
  for (const key of ['username', 'email', 'id', 'ip_address'])
    if (typeof user[key] === 'string' || typeof user[key] === 'number')
      return String(user[key]);
  return '—';
}

function occurrences(view: ErrorDetailView): SafeHtml {
  if (view.events.length === 0)
    return html`<p class="muted">No stored occurrences.</p>`;
  return html`<div class="table-wrap">
    <table>
      <caption class="visually-hidden">
        Latest occurrences
      </caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Message</th>
          <th scope="col" class="hide-sm">Environment</th>
          <th scope="col" class="hide-sm">Release</th>
          <th scope="col">User</th>
        </tr>
      </thead>
      <tbody>
        ${view.events.map(
          (e) =>
            html`<tr>
              <td class="nowrap">${timeTag(e.timestamp, view.now)}</td>
              <td>${e.message || e.title}</td>
              <td class="hide-sm">${e.environment}</td>
              <td class="hide-sm">${e.release ?? '—'}</td>
              <td>${userOf(e.user)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** One error: status and actions, cards, the hourly chart, stack trace, tags, occurrences. */
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
      <section class="card" aria-labelledby="stack-heading">
        <div class="card-header">
          <h2 id="stack-heading">Stack trace</h2>
          <span class="muted small"
            >Latest event,
            ${
              view.stackTraceCrashed
                ? 'crash frame first'
                : 'most recent frame first'
            }</span
          >
        </div>
        ${stackTraceView(view.stackTrace, view.stackTraceCrashed)}
      </section>
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
