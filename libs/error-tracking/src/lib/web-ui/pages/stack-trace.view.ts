import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import type { StackTraceEntry } from '../../errors/stack-trace';

function location(frame: StackTraceEntry): string {
  const file = frame.filename ?? frame.abs_path ?? frame.module ?? '?';
  if (frame.lineNo === null) return file;
  return `${file}:${frame.lineNo}${frame.colNo ? `:${frame.colNo}` : ''}`;
}

/** Where a source-mapped frame was in the minified file. */
function minified(frame: StackTraceEntry): SafeHtml | null {
  const raw = frame.source_map;
  if (!raw) return null;
  const at = [raw.lineNo, raw.colNo].filter((n) => n !== null).join(':');
  return html`<p class="minified">
    Resolved by source map from
    <code>${raw.function ?? '?'}</code> at
    <code>${raw.filename ?? '?'}${at ? `:${at}` : ''}</code>
  </p>`;
}

function context(frame: StackTraceEntry): SafeHtml {
  if (frame.context.length === 0)
    return html`<p class="no-context">No source context for this frame.</p>`;
  // Each line keeps its indentation (.code is white-space: pre).
  const lines = frame.context.map(
    ([n, code]) =>
      html`<li${n === frame.lineNo ? html` class="current" aria-current="true"` : null}><span class="ln">${n}</span><span class="code">${code}</span></li>`,
  );
  // Focusable so keyboard users can scroll long lines sideways.
  return html`<div
    class="context"
    tabindex="0"
    role="region"
    aria-label="Source of ${location(frame)}"
  >
    <ol>
      ${lines}
    </ol>
  </div>`;
}

/** How one frame is shown: open or closed, the crash frame, its variables. */
export interface FrameDisplay {
  readonly open: boolean;
  readonly crash: boolean;
  /** The frame's local variables (`vars`), where the SDK sent them. */
  readonly vars?: SafeHtml | null;
}

/** One frame: its location and tags, folded over its source context. */
export function frameView(
  frame: StackTraceEntry,
  display: FrameDisplay,
): SafeHtml {
  const classes = `frame${frame.in_app ? ' in-app' : ''}${display.crash ? ' crash' : ''}`;
  return html`<details class="${classes}" ${display.open ? html` open` : null}>
    <summary>
      <span class="frame-file">${location(frame)}</span
      >${frame.function ? html`<span class="frame-fn">in ${frame.function}</span>` : null}${display.crash ? html`<span class="frame-tag crash-tag">crashed here</span>` : null}${frame.in_app ? html`<span class="frame-tag">in app</span>` : null}${frame.source_map ? html`<span class="frame-tag source-mapped">source map</span>` : null}
    </summary>
    ${minified(frame)} ${context(frame)} ${display.vars ?? null}
  </details>`;
}

/**
 * The latest event's stack trace, most recent frame first (`entries` come
 * oldest first, as the API gives them). That frame starts open, marked
 * "crashed here" only when `crashed` (an exception's crash frame, never a
 * message's stack or a thread snapshot); in-app frames are marked and
 * emphasised.
 */
export function stackTraceView(
  entries: readonly StackTraceEntry[],
  crashed: boolean,
): SafeHtml {
  if (entries.length === 0)
    return html`<p class="muted">The latest event has no stack trace.</p>`;
  const frames = [...entries].reverse();
  return html`<div class="stack">
    ${frames.map((frame, i) =>
      frameView(frame, { open: i === 0, crash: crashed && i === 0 }),
    )}
  </div>`;
}
