import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import type { ErrorRecord, IgnoreUntil } from '../../errors/error.types';
import type { WebContext } from '../toolkit/web-context';

/** Sentry's ignore choices: for a while, or until it occurs or spreads again. */
export const IGNORE_CHOICES: ReadonlyArray<{
  readonly value: string;
  readonly label: string;
  readonly until: IgnoreUntil;
}> = [
  { value: '', label: 'Until changed', until: {} },
  { value: 'minutes:30', label: 'For 30 minutes', until: { minutes: 30 } },
  { value: 'minutes:120', label: 'For 2 hours', until: { minutes: 120 } },
  { value: 'minutes:1440', label: 'For 24 hours', until: { minutes: 1440 } },
  { value: 'minutes:10080', label: 'For 1 week', until: { minutes: 10080 } },
  ...[1, 10, 100, 1000].map((n) => ({
    value: `count:${n}`,
    label: `Until ${n} more event${n === 1 ? '' : 's'}`,
    until: { events: n },
  })),
  ...[1, 10, 100, 1000].map((n) => ({
    value: `users:${n}`,
    label: `Until ${n} more user${n === 1 ? '' : 's'}`,
    until: { users: n },
  })),
];

/** The ignore choices as a labelled select named `ignore`. */
export function ignoreSelect(id: string): SafeHtml {
  return html`<div class="field">
    <label for="${id}">Ignore</label>
    <select id="${id}" name="ignore">
      ${IGNORE_CHOICES.map(
        (choice) =>
          html`<option value="${choice.value}">${choice.label}</option>`,
      )}
    </select>
  </div>`;
}

/** The ignore condition a form's `ignore` field names (undefined: unknown). */
export function ignoreUntilOfField(value: string): IgnoreUntil | undefined {
  return IGNORE_CHOICES.find((choice) => choice.value === value)?.until;
}

/** The filters of the list a bulk change came from (kept for "all matching"). */
export interface BulkFilters {
  readonly status: string;
  /** Sentry's search syntax, as the list's box. */
  readonly query: string;
  readonly environment: string;
  readonly release: string;
  readonly level: string;
}

export function filterFields(filters: BulkFilters): SafeHtml {
  return html`<input type="hidden" name="status" value="${filters.status}" />
    <input type="hidden" name="query" value="${filters.query}" />
    <input type="hidden" name="environment" value="${filters.environment}" />
    <input type="hidden" name="release" value="${filters.release}" />
    <input type="hidden" name="level" value="${filters.level}" />`;
}

/**
 * The row's checkbox (in the error's cell, so the table keeps its columns),
 * named after the error for screen readers.
 */
export function selectBox(error: ErrorRecord): SafeHtml {
  return html`<input
    type="checkbox"
    class="row-select"
    name="ids"
    value="${error.id}"
    form="bulk-actions"
    aria-label="Select ${error.title}"
  />`;
}

/** What an ignored error waits for, in words (null when it waits for nothing). */
export function ignoreCondition(
  error: ErrorRecord,
  now: Date,
): SafeHtml | null {
  if (error.status !== 'ignored') return null;
  const parts: string[] = [];
  if (error.ignoredUntil) {
    const minutes = Math.max(
      1,
      Math.ceil((error.ignoredUntil.getTime() - now.getTime()) / 60_000),
    );
    parts.push(
      minutes >= 120
        ? `about ${Math.round(minutes / 60)} hours`
        : `${minutes} minute${minutes === 1 ? '' : 's'}`,
    );
  }
  const more = (n: number, noun: string) =>
    `${n} more ${noun}${n === 1 ? '' : 's'}`;
  if (error.ignoredUntilCount != null)
    parts.push(more(error.ignoredUntilCount - error.count, 'event'));
  if (error.ignoredUntilUserCount != null)
    parts.push(more(error.ignoredUntilUserCount - error.userCount, 'user'));
  return parts.length > 0
    ? html`<div class="culprit">Reopens after ${parts.join(' or ')}</div>`
    : null;
}

/**
 * The list's triage bar: resolve, ignore (with Sentry's conditions), reopen
 * or merge the rows ticked, or every error the search takes (a
 * confirmation page follows). Its form holds no rows: their checkboxes
 * join it by `form=`, so the table stays the list's own markup.
 */
export function bulkActions(
  ctx: WebContext,
  projectId: number,
  filters: BulkFilters,
): SafeHtml {
  return html`<form
    id="bulk-actions"
    method="post"
    action="/projects/${projectId}/error_tracking/bulk"
    class="bulk-actions"
    aria-label="Change the selected errors"
  >
    <input type="hidden" name="_csrf" value="${ctx.csrfToken}" />
    ${filterFields(filters)} ${ignoreSelect('bulk-ignore')}
    <div class="bulk-buttons">
      <button
        type="submit"
        name="action"
        value="resolved"
        class="btn btn-confirm"
      >
        Resolve
      </button>
      <button type="submit" name="action" value="ignored" class="btn">
        Ignore
      </button>
      <button type="submit" name="action" value="unresolved" class="btn">
        Reopen
      </button>
      <button type="submit" name="action" value="merge" class="btn">
        Merge
      </button>
    </div>
    <label class="bulk-all">
      <input type="checkbox" name="all_matching" value="1" />
      All errors matching this search, on every page
    </label>
  </form>`;
}
