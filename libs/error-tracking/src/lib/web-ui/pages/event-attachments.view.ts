import type { StoredAttachment } from '../../attachments/attachment.types';
import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';

/** Where an event's attachment is downloaded. */
export function attachmentPath(
  projectId: number,
  errorId: string,
  eventId: string,
  attachmentId: string,
): string {
  return `/projects/${projectId}/error_tracking/${errorId}/events/${eventId}/attachments/${attachmentId}`;
}

function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export interface EventAttachmentsView {
  readonly projectId: number;
  readonly errorId: string;
  readonly eventId: string;
  readonly attachments: readonly StoredAttachment[];
  /** Which event, when the page shows more than it (`Latest event`). */
  readonly note?: string;
}

/**
 * An event's attachments as a card of download links (a page that shows
 * one event includes it as is). The links download: the bytes are served
 * as `application/octet-stream`, never shown.
 */
export function eventAttachmentsView(view: EventAttachmentsView): SafeHtml {
  return html`<section class="card" aria-labelledby="attachments-heading">
    <div class="card-header">
      <h2 id="attachments-heading">Attachments</h2>
      ${view.note ? html`<span class="muted small">${view.note}</span>` : null}
    </div>
    ${
      view.attachments.length === 0
        ? html`<p class="muted">No attachments.</p>`
        : html`<div class="table-wrap">
            <table>
              <caption class="visually-hidden">
                Attachments, downloaded as files
              </caption>
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col" class="num">Size</th>
                  <th scope="col" class="hide-sm">Type (as sent)</th>
                </tr>
              </thead>
              <tbody>
                ${view.attachments.map(
                  (a) =>
                    html`<tr>
                      <td>
                        <a
                          href="${attachmentPath(view.projectId, view.errorId, view.eventId, a.id)}"
                          download="${a.filename}"
                          >${a.filename}</a
                        >
                      </td>
                      <td class="num nowrap">${sizeLabel(a.size)}</td>
                      <td class="hide-sm">
                        ${a.contentType ? html`<code>${a.contentType}</code>` : '—'}
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}
