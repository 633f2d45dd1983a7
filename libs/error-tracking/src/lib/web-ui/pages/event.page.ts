import { html } from '../../html/html';
import type { ErrorRecord, EventNeighbours } from '../../errors/error.types';
import type { ProjectRecord } from '../../projects/project.types';
import type { JsonObject } from '../../sentry-event/event-json';
import { timeTag } from '../toolkit/relative-time';
import type { WebContext } from '../toolkit/web-context';
import { errorTrackingPage } from './error-tracking.page';
import { eventNavigationView } from './event-navigation.view';
import { eventAttachmentsView } from './event-attachments.view';
import { eventView } from './event.view';
import type { StoredAttachment } from '../../attachments/attachment.types';

export interface EventPageView {
  readonly project: ProjectRecord;
  readonly accessLevel: number;
  readonly error: ErrorRecord;
  readonly eventId: string;
  readonly payload: JsonObject;
  readonly timestamp: Date;
  readonly receivedAt: Date;
  readonly neighbours: EventNeighbours;
  readonly attachments: readonly StoredAttachment[];
  readonly now: Date;
}

/** One event of an error: navigation between its events, then the event. */
export function eventPage(ctx: WebContext, view: EventPageView): string {
  const { project, error } = view;
  const errorHref = `/projects/${project.id}/error_tracking/${error.id}`;
  // The event's own title: an error's events may differ (a retitled error).
  const title =
    typeof view.payload['title'] === 'string' && view.payload['title'] !== ''
      ? view.payload['title']
      : error.title;
  return errorTrackingPage(
    ctx,
    view,
    `Event ${view.eventId} · ${title} · ${project.name}`,
    [
      {
        label: 'Error Tracking',
        href: `/projects/${project.id}/error_tracking`,
      },
      { label: `Error ${error.id}`, href: errorHref },
      { label: `Event ${view.eventId.slice(0, 8)}` },
    ],
    html`<div class="page-header">
        <div>
          <h1>${title}</h1>
          <p class="subtitle">
            Event <code class="event-id">${view.eventId}</code>
            ${timeTag(view.timestamp, view.now)}
            <span class="muted small"
              >(received ${timeTag(view.receivedAt, view.now)})</span
            >
          </p>
        </div>
        <div class="actions">
          <a class="btn" href="${errorHref}">Back to the error</a>
        </div>
      </div>
      ${eventNavigationView(project.id, error.id, view.eventId, view.neighbours)}
      ${eventView({
        payload: view.payload,
        timestamp: view.timestamp,
        attachments:
          view.attachments.length > 0
            ? eventAttachmentsView({
                projectId: project.id,
                errorId: error.id,
                eventId: view.eventId,
                attachments: view.attachments,
              })
            : undefined,
      })}`,
  );
}
