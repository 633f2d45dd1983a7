import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';

/** A list's search box (`search`, up to 1,000 characters). */
export function searchField(value: string, placeholder: string): SafeHtml {
  return html`<div class="field grow">
    <label for="search">Search</label>
    <input
      id="search"
      name="search"
      type="search"
      value="${value}"
      placeholder="${placeholder}"
      maxlength="1000"
    />
  </div>`;
}

/** A query parameter as trimmed text of at most `max` characters ('' if absent). */
export function queryText(value: unknown, max: number): string {
  return typeof value === 'string' ? value.trim().slice(0, max) : '';
}
