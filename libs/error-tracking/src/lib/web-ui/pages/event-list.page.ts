import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import type { ErrorRecord, EventSummary } from '../../errors/error.types';
import type { ProjectRecord } from '../../projects/project.types';
import { timeTag } from '../toolkit/relative-time';
import { searchField } from '../toolkit/list-search';
import type { WebContext } from '../toolkit/web-context';
import { errorTrackingPage } from './error-tracking.page';
import { eventHref, eventListHref } from './event-navigation.view';

export interface EventListView {
  readonly project: ProjectRecord;
  readonly accessLevel: number;
  readonly error: ErrorRecord;
  /** Sentry's search syntax over the events. */
  readonly query: string;
  /** A bad query's fault (the list is then empty). */
  readonly queryError?: string;
  readonly cursor?: string;
  readonly items: EventSummary[];
  readonly nextCursor?: string;
  readonly now: Date;
}

function listHref(view: EventListView, cursor?: string): string {
  const params = new URLSearchParams();
  if (view.query) params.set('query', view.query);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return `${eventListHref(view.project.id, view.error.id)}${text ? `?${text}` : ''}`;
}

/** Who an event happened to, in a word. */
export function eventUser(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '—';
  const user = value as Record<string, unknown>;
  for (const key of ['username', 'email', 'id', 'ip_address'])
    if (typeof user[key] === 'string' || typeof user[key] === 'number')
      return String(user[key]);
  return '—';
}

/** Rows of events, newest first, each linking to its page. */
export function eventRows(
  project: ProjectRecord,
  error: ErrorRecord,
  events: readonly EventSummary[],
  now: Date,
  caption: string,
): SafeHtml {
  return html`<div class="table-wrap">
    <table>
      <caption class="visually-hidden">
        ${caption}
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
        ${events.map(
          (e) =>
            html`<tr>
              <td class="nowrap">
                <a href="${eventHref(project.id, error.id, e.eventId)}"
                  >${timeTag(e.timestamp, now)}<span class="visually-hidden">
                    event ${e.eventId}</span
                  ></a
                >
              </td>
              <td class="event-message-cell">${e.message || e.title}</td>
              <td class="hide-sm">${e.environment}</td>
              <td class="hide-sm">${e.release ?? '—'}</td>
              <td>${eventUser(e.user)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** All events of an error, newest first, searchable, a page at a time. */
export function eventListPage(ctx: WebContext, view: EventListView): string {
  const { project, error } = view;
  const errorHref = `/projects/${project.id}/error_tracking/${error.id}`;
  const action = eventListHref(project.id, error.id);
  return errorTrackingPage(
    ctx,
    view,
    `Events · ${error.title} · ${project.name}`,
    [
      {
        label: 'Error Tracking',
        href: `/projects/${project.id}/error_tracking`,
      },
      { label: `Error ${error.id}`, href: errorHref },
      { label: 'Events' },
    ],
    html`<div class="page-header">
        <div>
          <h1>Events of ${error.title}</h1>
          <p class="subtitle">${error.count} events, newest first</p>
        </div>
        <div class="actions">
          <a class="btn" href="${errorHref}">Back to the error</a>
        </div>
      </div>
      <form method="get" action="${action}" class="filters" role="search">
        ${searchField(view.query, {
          placeholder: 'Text, key:value, !key:value, has:, timestamp:-24h',
          help: html`Sentry's syntax: words, <code>browser.name:Chrome</code>,
            <code>!environment:staging</code>, <code>has:user</code>,
            <code>timestamp:&gt;2026-11-01</code>.`,
          error: view.queryError,
        })}
        <button type="submit" class="btn">Search</button>
      </form>
      ${
        view.items.length === 0
          ? html`<p class="empty">
              ${view.queryError ? 'Fix the search to see events.' : view.nextCursor ? 'No match on this page; the next page reads further back.' : 'No events match.'}
            </p>`
          : eventRows(
              project,
              error,
              view.items,
              view.now,
              'Events, newest first',
            )
      }
      <nav class="pagination" aria-label="Pages">
        ${view.cursor ? html`<a class="btn" href="${listHref(view)}">First page</a>` : null}
        ${view.nextCursor ? html`<a class="btn" rel="next" href="${listHref(view, view.nextCursor)}">Next page</a>` : null}
      </nav>`,
  );
}
