import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import type { JsonObject } from '../../sentry-event/event-json';
import { breadcrumbsView } from './event-breadcrumbs.view';
import { eventDetailsView } from './event-details.view';
import { exceptionsView } from './event-exceptions.view';
import { eventSection } from './event-values.view';

/** One stored event as a page shows it. */
export interface EventView {
  readonly payload: JsonObject;
  /** The event's time: breadcrumbs are shown relative to it. */
  readonly timestamp: Date;
  /**
   * The event's attachments section, from the attachments area once it
   * stores them: rendered after the SDK, nothing while absent.
   */
  readonly attachments?: SafeHtml;
}

/**
 * Every part of an event: its message, the exception chain, breadcrumbs,
 * fields, tags, contexts, user, request, extra data, SDK, attachments.
 */
export function eventView(view: EventView): SafeHtml {
  const { payload } = view;
  const message =
    typeof payload['message'] === 'string' && payload['message'] !== ''
      ? payload['message']
      : null;
  return html`<div class="event">
    ${message ? eventSection('event-message-heading', 'Message', html`<pre class="event-message" tabindex="0">${message}</pre>`) : null}
    ${exceptionsView(payload)} ${breadcrumbsView(payload, view.timestamp)}
    ${eventDetailsView(payload)} ${view.attachments ?? null}
  </div>`;
}
