import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';

/** A read-only field with a copy button (`data-copy-target`, ui.js). */
export function copyField(
  id: string,
  label: string,
  value: string,
  hiddenLabel = false,
): SafeHtml {
  return html`<label
      for="${id}"
      ${hiddenLabel ? html` class="visually-hidden"` : null}
      >${label}</label
    >
    <div class="copy-field">
      <input
        id="${id}"
        type="text"
        readonly
        value="${value}"
        spellcheck="false"
      />
      <button type="button" class="btn" data-copy-target="${id}">
        <span class="copy-label">Copy</span
        ><span class="visually-hidden"> ${label}</span>
      </button>
    </div>`;
}
