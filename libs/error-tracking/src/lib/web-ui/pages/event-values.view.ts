import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import { isJsonObject } from '../../sentry-event/event-json';

/** Text of a value as sent: strings as they are, anything else as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** A value: short scalars inline, objects and arrays as indented JSON. */
export function valueView(value: unknown): SafeHtml {
  // Focusable: keyboard users scroll a long one.
  if (typeof value === 'object' && value !== null)
    return html`<pre class="json" tabindex="0">${valueText(value)}</pre>`;
  return html`${valueText(value)}`;
}

/** An object's entries (none for anything else). */
export function entriesOf(value: unknown): Array<[string, unknown]> {
  return isJsonObject(value) ? Object.entries(value) : [];
}

/** Key/value rows, `label`led for assistive technology; none: `empty`. */
export function keyValues(
  entries: ReadonlyArray<readonly [string, unknown]>,
  label: string,
  empty = 'Nothing was sent.',
): SafeHtml {
  const shown = entries.filter(([, value]) => value !== undefined);
  if (shown.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<dl class="kv event-kv" aria-label="${label}">
    ${shown.map(
      ([key, value]) =>
        html`<dt>${key}</dt>
          <dd>${valueView(value)}</dd>`,
    )}
  </dl>`;
}

/** A section of an event: a card with its heading. */
export function eventSection(
  id: string,
  heading: string,
  body: SafeHtml,
): SafeHtml {
  return html`<section class="card event-section" aria-labelledby="${id}">
    <div class="card-header"><h2 id="${id}">${heading}</h2></div>
    ${body}
  </section>`;
}
