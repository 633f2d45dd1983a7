import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import type { EventNeighbours } from '../../errors/error.types';

/** The page of one event of an error. */
export function eventHref(
  projectId: number,
  errorId: string,
  eventId: string,
): string {
  return `/projects/${projectId}/error_tracking/${errorId}/events/${eventId}`;
}

/** The paged list of an error's events. */
export function eventListHref(projectId: number, errorId: string): string {
  return `/projects/${projectId}/error_tracking/${errorId}/events`;
}

const STEPS: ReadonlyArray<[keyof EventNeighbours, string, string | null]> = [
  ['oldest', 'Oldest', null],
  ['older', 'Older', 'prev'],
  ['newer', 'Newer', 'next'],
  ['latest', 'Latest', null],
];

/**
 * Oldest / Older / Newer / Latest between an error's events (by time); a
 * step that leads nowhere (or to the event itself) is shown disabled.
 */
export function eventNavigationView(
  projectId: number,
  errorId: string,
  eventId: string,
  neighbours: EventNeighbours,
): SafeHtml {
  return html`<nav class="event-nav" aria-label="Events of this error">
    <ul>
      ${STEPS.map(([step, label, rel]) => {
        const target = neighbours[step];
        return html`<li>
          ${
            target === null || target === eventId
              ? html`<span class="btn btn-sm disabled" aria-disabled="true"
                  >${label}</span
                >`
              : html`<a
                  class="btn btn-sm"
                  href="${eventHref(projectId, errorId, target)}"
                  ${rel ? html`rel="${rel}"` : null}
                  >${label}</a
                >`
          }
        </li>`;
      })}
      <li>
        <a class="btn btn-sm" href="${eventListHref(projectId, errorId)}"
          >All events</a
        >
      </li>
    </ul>
  </nav>`;
}
