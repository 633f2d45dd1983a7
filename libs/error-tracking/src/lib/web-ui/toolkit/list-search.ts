import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from '../../common/error-tracking.errors';
import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';

/** What a list's search box says besides its value. */
export interface SearchFieldText {
  readonly placeholder: string;
  /** Under the box: the syntax in a few examples. */
  readonly help: SafeHtml;
  /** Why the list's query was refused, told beside the box. */
  readonly error?: string;
}

/**
 * A list's search box: Sentry's search syntax in `query` (up to 1,000
 * characters), with its help and the query's error if refused.
 */
export function searchField(value: string, text: SearchFieldText): SafeHtml {
  return html`<div class="field grow">
    <label for="search">Search</label>
    <input
      id="search"
      name="query"
      type="search"
      value="${value}"
      placeholder="${text.placeholder}"
      maxlength="1000"
      aria-describedby="search-help${text.error ? ' search-error' : ''}"
      ${text.error ? html`aria-invalid="true"` : null}
    />
    <p id="search-help" class="muted small">${text.help}</p>
    ${
      text.error
        ? html`<p id="search-error" class="field-error" role="alert">
            ${text.error}
          </p>`
        : null
    }
  </div>`;
}

/** A query parameter as trimmed text of at most `max` characters ('' if absent). */
export function queryText(value: unknown, max: number): string {
  return typeof value === 'string' ? value.trim().slice(0, max) : '';
}

/** A page of a searched list, and why its query was refused (then it is empty). */
export interface SearchedPage<T> {
  readonly page: { readonly items: T[]; readonly nextCursor?: string };
  readonly queryError?: string;
}

/**
 * A list's page read with its query; a query refused (400) is told beside
 * the box on an empty list, not as an error page. Any other fault (a bad
 * cursor included) is thrown on.
 */
export async function searchedPage<T>(
  read: () => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<SearchedPage<T>> {
  try {
    return { page: await read() };
  } catch (error) {
    if (
      error instanceof ErrorTrackingError &&
      error.code === ErrorTrackingErrorCode.BadRequest
    )
      return { page: { items: [] }, queryError: error.message };
    throw error;
  }
}
