import { AccessLevel } from '../../common/error-tracking.constants';
import type { ProjectRecord } from '../../projects/project.types';
import { html } from '../../html/html';
import { noticeBanner } from '../toolkit/notices';
import { timeTag } from '../toolkit/relative-time';
import type { WebContext } from '../toolkit/web-context';
import { errorTrackingPage } from './error-tracking.page';
import { ERROR_SORTS, EVENT_LEVELS } from '../../errors/error.types';
import type { ErrorSort, ErrorStatus } from '../../errors/error.types';
import type { ErrorWithFrequency } from '../../errors/errors.service';
import {
  bulkActions,
  ignoreCondition,
  selectBox,
} from './error-bulk-actions.view';
import { firstErrorSetup } from './first-error.view';
import { sparkline } from './frequency-charts';
import { searchField } from '../toolkit/list-search';

export interface ErrorListQuery {
  readonly status: ErrorStatus;
  readonly sort: ErrorSort;
  /** Sentry's search syntax (free text included). */
  readonly query: string;
  readonly environment: string;
  readonly release: string;
  readonly level: string;
  readonly cursor?: string;
}

/** The one tag the pickers selected, whose counts the rows show. */
export interface ListSelection {
  readonly key: 'environment' | 'release' | 'level';
  readonly value: string;
  readonly counts: ReadonlyMap<string, number>;
}

export interface ErrorListView {
  readonly project: ProjectRecord;
  /** The viewer's access level (sidebar and buttons follow it). */
  readonly accessLevel: number;
  readonly query: ErrorListQuery;
  readonly items: ErrorWithFrequency[];
  readonly nextCursor?: string;
  readonly environments: string[];
  readonly releases: string[];
  /** Set when exactly one picker selects a value. */
  readonly selection?: ListSelection;
  /** A bad query's fault (the list is then empty). */
  readonly queryError?: string;
  readonly now: Date;
  readonly notice?: unknown;
  /** An enabled project's DSN while it has no error (maintainers). */
  readonly firstErrorDsn?: string;
}

const TAB_LABEL: Record<ErrorStatus, string> = {
  unresolved: 'Open',
  ignored: 'Ignored',
  resolved: 'Resolved',
};

const TABS: readonly ErrorStatus[] = ['unresolved', 'ignored', 'resolved'];

const SORT_LABEL: Record<ErrorSort, string> = {
  last_seen: 'Last seen',
  first_seen: 'First seen',
  frequency: 'Frequency',
};

/** The list's URL with some parameters changed (defaults left out). */
export function errorListHref(
  projectId: number,
  query: ErrorListQuery,
  changes: Partial<ErrorListQuery>,
): string {
  const merged = { ...query, cursor: undefined, ...changes };
  const params = new URLSearchParams();
  if (merged.status !== 'unresolved') params.set('status', merged.status);
  if (merged.query) params.set('query', merged.query);
  if (merged.environment) params.set('environment', merged.environment);
  if (merged.release) params.set('release', merged.release);
  if (merged.level) params.set('level', merged.level);
  if (merged.sort !== 'last_seen') params.set('sort', merged.sort);
  if (merged.cursor) params.set('cursor', merged.cursor);
  const text = params.toString();
  return `/projects/${projectId}/error_tracking${text ? `?${text}` : ''}`;
}

function picker(
  name: string,
  label: string,
  all: string,
  values: readonly string[],
  selected: string,
) {
  return html`<div class="field">
    <label for="${name}">${label}</label>
    <select id="${name}" name="${name}" data-autosubmit>
      <option value="">${all}</option>
      ${values.map(
        (value) =>
          html`<option
            value="${value}"
            ${value === selected ? html`selected` : null}
          >
            ${value}
          </option>`,
      )}
    </select>
  </div>`;
}

function filters(view: ErrorListView) {
  const { query } = view;
  return html`<form
    method="get"
    action="/projects/${view.project.id}/error_tracking"
    class="filters"
    role="search"
  >
    ${
      query.status !== 'unresolved'
        ? html`<input type="hidden" name="status" value="${query.status}" />`
        : null
    }
    ${searchField(query.query, {
      placeholder: 'Text, key:value, !key:value, is:, has:, firstSeen:-24h',
      help: html`Sentry's syntax: words, <code>browser.name:Chrome</code>,
        <code>!environment:staging</code>, <code>is:resolved</code>,
        <code>has:user</code>, <code>times_seen:&gt;10</code>.`,
      error: view.queryError,
    })}
    ${picker('environment', 'Environment', 'All environments', view.environments, query.environment)}
    ${picker('release', 'Release', 'All releases', view.releases, query.release)}
    ${picker('level', 'Level', 'All levels', EVENT_LEVELS, query.level)}
    <div class="field">
      <label for="sort">Sort by</label>
      <select id="sort" name="sort" data-autosubmit>
        ${ERROR_SORTS.map(
          (sort) =>
            html`<option
              value="${sort}"
              ${sort === query.sort ? html`selected` : null}
            >
              ${SORT_LABEL[sort]}
            </option>`,
        )}
      </select>
    </div>
    <button type="submit" class="btn">Apply</button>
  </form>`;
}

/** Developers triage from the list (the bar above it, a checkbox per row). */
function canTriage(view: ErrorListView): boolean {
  return view.accessLevel >= AccessLevel.Developer;
}

function rows(view: ErrorListView) {
  const base = `/projects/${view.project.id}/error_tracking`;
  return view.items.map(
    ({ error, frequency }) =>
      html`<tr>
        <td>
          ${canTriage(view) ? selectBox(error) : null}
          <a class="error-title" href="${base}/${error.id}">${error.title}</a>
          <div class="culprit">${error.culprit}</div>
          ${ignoreCondition(error, view.now)}
        </td>
        <td class="num">
          ${view.selection ? (view.selection.counts.get(error.id) ?? 0) : error.count}
        </td>
        <td class="num">${error.userCount}</td>
        <td class="nowrap">${timeTag(error.lastSeen, view.now)}</td>
        <td class="nowrap hide-sm">${timeTag(error.firstSeen, view.now)}</td>
        <td class="hide-sm">${sparkline(frequency)}</td>
      </tr>`,
  );
}

/** Monitor > Error Tracking: tabs, search, pickers, sort, rows, pages. */
export function errorListPage(ctx: WebContext, view: ErrorListView): string {
  const { project, query } = view;
  const table = view.firstErrorDsn
    ? firstErrorSetup(view.firstErrorDsn)
    : view.items.length === 0
      ? html`<div class="card empty">
          <h2>No ${TAB_LABEL[query.status].toLowerCase()} errors</h2>
          <p>
            ${
              project.trackingActive
                ? view.queryError
                  ? 'Fix the search to see errors.'
                  : query.query ||
                      query.environment ||
                      query.release ||
                      query.level
                    ? 'Nothing matches these filters.'
                    : 'Errors your application reports appear here.'
                : view.accessLevel >= AccessLevel.Maintainer
                  ? html`Error tracking is off for this project.
                      <a href="/projects/${project.id}/settings/monitor"
                        >Enable it</a
                      >
                      to get a DSN.`
                  : 'Error tracking is off for this project; a maintainer can enable it.'
            }
          </p>
        </div>`
      : html`<div class="table-wrap">
          <table>
            <caption class="visually-hidden">
              ${TAB_LABEL[query.status]} errors, sorted by
              ${SORT_LABEL[query.sort].toLowerCase()}
            </caption>
            <thead>
              <tr>
                <th scope="col">Error</th>
                <th scope="col" class="num">
                  ${
                    view.selection
                      ? html`Events
                          <span class="small"
                            >(${view.selection.key}
                            ${view.selection.value})</span
                          >`
                      : 'Events'
                  }
                </th>
                <th scope="col" class="num">Users</th>
                <th scope="col">Last seen</th>
                <th scope="col" class="hide-sm">First seen</th>
                <th scope="col" class="hide-sm">Last 24 hours</th>
              </tr>
            </thead>
            <tbody>
              ${rows(view)}
            </tbody>
          </table>
        </div>`;
  const triage =
    canTriage(view) && view.items.length > 0
      ? bulkActions(ctx, project.id, {
          status: query.status,
          query: query.query,
          environment: query.environment,
          release: query.release,
          level: query.level,
        })
      : null;
  return errorTrackingPage(
    ctx,
    view,
    `Errors · ${project.name}`,
    [{ label: 'Monitor' }, { label: 'Error Tracking' }],
    html`${noticeBanner(view.notice)}
      <div class="page-header">
        <div>
          <h1>Error Tracking</h1>
          <p class="subtitle" data-auto-refresh="30">
            Errors reported by this project's applications.
            <span class="js-only"
              >The first page refreshes every 30 seconds.</span
            >
          </p>
        </div>
        ${
          view.accessLevel >= AccessLevel.Maintainer
            ? html`<div class="actions">
                <a class="btn" href="/projects/${project.id}/settings/monitor"
                  >Settings</a
                >
              </div>`
            : null
        }
      </div>
      <nav aria-label="Error status">
        <ul class="tabs">
          ${TABS.map(
            (status) =>
              html`<li>
                <a
                  href="${errorListHref(project.id, query, { status })}"
                  ${status === query.status ? html`aria-current="page"` : null}
                  >${TAB_LABEL[status]}</a
                >
              </li>`,
          )}
        </ul>
      </nav>
      ${filters(view)} ${triage} ${table}
      <nav class="pagination" aria-label="Pages">
        ${
          query.cursor
            ? html`<a class="btn" href="${errorListHref(project.id, query, {})}"
                >First page</a
              >`
            : null
        }
        ${
          view.nextCursor
            ? html`<a
                class="btn"
                rel="next"
                href="${errorListHref(project.id, query, { cursor: view.nextCursor })}"
                >Next page</a
              >`
            : null
        }
      </nav>`,
  );
}
