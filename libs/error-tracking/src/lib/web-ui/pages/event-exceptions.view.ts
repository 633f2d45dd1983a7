import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import {
  eventStackTrace,
  exceptionFrames,
  toStackTraceEntry,
} from '../../errors/stack-trace';
import { exceptionList, isJsonObject } from '../../sentry-event/event-json';
import type { JsonObject } from '../../sentry-event/event-json';
import { entriesOf, eventSection, keyValues } from './event-values.view';
import { frameView, stackTraceView } from './stack-trace.view';

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function varsOf(frame: JsonObject): SafeHtml | null {
  const vars = entriesOf(frame['vars']);
  if (vars.length === 0) return null;
  return html`<div class="frame-vars">
    <p class="frame-vars-heading">Variables</p>
    ${keyValues(vars, 'Variables')}
  </div>`;
}

/**
 * Frames most recent first: the in-app ones shown, the whole trace behind
 * "Show all frames" (all of it shown when none or every frame is in app).
 * The crash frame, when `crashed`, is the most recent one: marked (and
 * open) where it first appears, so one element is the crash frame.
 */
function framesView(frames: readonly JsonObject[], crashed: boolean): SafeHtml {
  if (frames.length === 0)
    return html`<p class="muted">No stack trace was sent.</p>`;
  const recentFirst = [...frames].reverse();
  const render = (list: readonly JsonObject[], marksCrash: boolean) =>
    html`<div class="stack">
      ${list.map((frame, i) =>
        frameView(toStackTraceEntry(frame), {
          open: marksCrash && i === 0,
          crash: marksCrash && crashed && frame === recentFirst[0],
          vars: varsOf(frame),
        }),
      )}
    </div>`;
  const inApp = recentFirst.filter((frame) => frame['in_app'] === true);
  if (inApp.length === 0 || inApp.length === recentFirst.length)
    return render(recentFirst, true);
  // The crash frame outside the app is first seen in the whole trace.
  const crashInApp = recentFirst[0]?.['in_app'] === true;
  return html`${render(inApp, true)}
    <details class="all-frames">
      <summary>Show all frames (${recentFirst.length})</summary>
      ${render(recentFirst, !crashInApp)}
    </details>`;
}

function mechanismView(exception: JsonObject): SafeHtml | null {
  const mechanism = exception['mechanism'];
  if (!isJsonObject(mechanism)) return null;
  const handled = mechanism['handled'];
  return html`<p class="mechanism">
    ${text(mechanism['type']) ? html`<span class="badge badge-neutral">mechanism: ${text(mechanism['type'])}</span>` : null}
    ${
      handled === true
        ? html`<span class="badge badge-success">handled</span>`
        : handled === false
          ? html`<span class="badge badge-danger">unhandled</span>`
          : null
    }
    ${mechanism['synthetic'] === true ? html`<span class="badge badge-neutral">synthetic</span>` : null}
  </p>`;
}

/**
 * Every exception of the chain, the thrown one first (SDKs send the
 * chain oldest cause first): type, value, mechanism, stack trace. An event
 * without exceptions shows its message's or crashed thread's stack trace.
 */
export function exceptionsView(payload: JsonObject): SafeHtml {
  const chain = exceptionList(payload['exception']);
  if (chain.length === 0) {
    const trace = eventStackTrace(payload);
    if (trace.frames.length === 0) return html``;
    return eventSection(
      'event-stack-heading',
      'Stack trace',
      stackTraceView(trace.frames.map(toStackTraceEntry), trace.crashed),
    );
  }
  // The crash frame belongs to the last exception with frames, if typed.
  const thrown = chain.reduce(
    (found, exception, i) =>
      exceptionFrames(exception).length > 0 ? i : found,
    -1,
  );
  const items = chain
    .map((exception, i) => ({ exception, i }))
    .reverse()
    .map(({ exception, i }) => {
      const type = text(exception['type']);
      const crashed = i === thrown && type !== null;
      return html`<li class="exception">
        <h3 class="exception-title">
          ${type ?? 'Exception'}${
            text(exception['module'])
              ? html` <span class="muted small"
                  >${text(exception['module'])}</span
                >`
              : null
          }
        </h3>
        ${text(exception['value']) ? html`<p class="exception-value">${text(exception['value'])}</p>` : null}
        ${mechanismView(exception)}
        ${framesView(exceptionFrames(exception), crashed)}
      </li>`;
    });
  return eventSection(
    'event-exception-heading',
    chain.length > 1 ? `Exceptions (${chain.length})` : 'Exception',
    html`<ol class="exception-chain">
      ${items}
    </ol>`,
  );
}
