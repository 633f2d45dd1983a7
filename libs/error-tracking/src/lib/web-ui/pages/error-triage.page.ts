import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import type { ErrorRecord } from '../../errors/error.types';
import type { ErrorStatus } from '../../errors/error.types';
import { postForm } from '../toolkit/layout';
import type { WebContext } from '../toolkit/web-context';
import { filterFields, IGNORE_CHOICES } from './error-bulk-actions.view';
import type { BulkFilters } from './error-bulk-actions.view';
import { errorListHref } from './error-list.page';
import { errorTrackingPage } from './error-tracking.page';
import type { ErrorTrackingPageView } from './error-tracking.page';

/** The verbs of a bulk change, by the status it sets. */
const VERB: Record<ErrorStatus, string> = {
  resolved: 'Resolve',
  ignored: 'Ignore',
  unresolved: 'Reopen',
};

const TAB: Record<string, string> = {
  unresolved: 'open',
  ignored: 'ignored',
  resolved: 'resolved',
};

export interface BulkConfirmView extends ErrorTrackingPageView {
  readonly status: ErrorStatus;
  readonly ignore: string;
  readonly filters: BulkFilters;
  /** How many errors match, counted up to `limit + 1`. */
  readonly count: number;
  readonly limit: number;
}

/** The list these filters show (its first page, sorted by last seen). */
export function listHrefOf(projectId: number, filters: BulkFilters): string {
  return errorListHref(
    projectId,
    {
      status: filters.status as ErrorStatus,
      sort: 'last_seen',
      query: filters.query,
      environment: filters.environment,
      release: filters.release,
      level: filters.level,
    },
    {},
  );
}

function described(filters: BulkFilters): SafeHtml {
  return html`every ${TAB[filters.status] ?? 'open'}
  error${
    filters.query ? html` matching “${filters.query}”` : null
  }${filters.environment ? html` in ${filters.environment}` : null}${
    filters.release ? html` of release ${filters.release}` : null
  }${filters.level ? html` with ${filters.level} events` : null}`;
}

/**
 * "All matching this search": what would change, confirmed before it
 * does; past the bound, a refusal that asks for a narrower search.
 */
export function bulkConfirmPage(
  ctx: WebContext,
  view: BulkConfirmView,
): string {
  const verb = VERB[view.status];
  const ignore = IGNORE_CHOICES.find((choice) => choice.value === view.ignore);
  const tooMany = view.count > view.limit;
  const body = tooMany
    ? html`<div class="card">
        <h1>Too many errors to change at once</h1>
        <p>
          More than ${view.limit} errors match: ${described(view.filters)}.
          Narrow the search, then try again.
        </p>
        <a class="btn" href="${listHrefOf(view.project.id, view.filters)}"
          >Back to the list</a
        >
      </div>`
    : html`<div class="card">
        <h1>${verb} ${view.count} error${view.count === 1 ? '' : 's'}?</h1>
        <p>
          This changes ${described(view.filters)}, on every
          page${
            view.status === 'ignored' && ignore
              ? html` (ignored: ${ignore.label.toLowerCase()})`
              : null
          }.
        </p>
        <div class="actions">
          ${postForm(
            ctx,
            `/projects/${view.project.id}/error_tracking/bulk`,
            html`${filterFields(view.filters)}
              <input type="hidden" name="action" value="${view.status}" />
              <input type="hidden" name="ignore" value="${view.ignore}" />
              <input type="hidden" name="all_matching" value="1" />
              <input type="hidden" name="confirmed" value="1" />
              <button type="submit" class="btn btn-confirm">
                ${verb} ${view.count} error${view.count === 1 ? '' : 's'}
              </button>`,
          )}
          <a class="btn" href="${listHrefOf(view.project.id, view.filters)}"
            >Cancel</a
          >
        </div>
      </div>`;
  return errorTrackingPage(
    ctx,
    view,
    `${verb} errors · ${view.project.name}`,
    [{ label: 'Error Tracking' }, { label: `${verb} errors` }],
    body,
  );
}

export interface MergeConfirmView extends ErrorTrackingPageView {
  /** The errors ticked, the one to keep by default first. */
  readonly errors: readonly ErrorRecord[];
  readonly filters: BulkFilters;
}

/** Merging: which error is kept (the most frequent by default), confirmed. */
export function mergeConfirmPage(
  ctx: WebContext,
  view: MergeConfirmView,
): string {
  const base = `/projects/${view.project.id}/error_tracking`;
  const body = html`<div class="card">
    <h1>Merge ${view.errors.length} errors</h1>
    <p>
      The events of the others move to the error you keep, and their future
      events land there too. This cannot be undone.
    </p>
    ${postForm(
      ctx,
      `${base}/merge`,
      html`<fieldset class="merge-choice">
          <legend>Keep</legend>
          ${view.errors.map(
            (error, index) =>
              html`<div class="radio">
                <input
                  type="radio"
                  id="keep-${error.id}"
                  name="kept"
                  value="${error.id}"
                  ${index === 0 ? html`checked` : null}
                />
                <label for="keep-${error.id}"
                  >${error.title}
                  <span class="muted"
                    >(${error.count} event${error.count === 1 ? '' : 's'})</span
                  ></label
                >
                <input type="hidden" name="ids" value="${error.id}" />
              </div>`,
          )}
        </fieldset>
        <div class="actions">
          <button type="submit" class="btn btn-confirm">
            Merge ${view.errors.length} errors
          </button>
          <a class="btn" href="${listHrefOf(view.project.id, view.filters)}"
            >Cancel</a
          >
        </div>`,
      { className: 'merge-form' },
    )}
  </div>`;
  return errorTrackingPage(
    ctx,
    view,
    `Merge errors · ${view.project.name}`,
    [{ label: 'Error Tracking', href: base }, { label: 'Merge errors' }],
    body,
  );
}
