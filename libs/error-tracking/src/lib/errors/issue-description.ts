import { isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';
import type { ErrorRecord } from './error.types';
import { codeFence, inlineCode, markdownText } from './markdown-text';
import { stackFrames } from './stack-trace';

function utc(date: Date): string {
  return `${date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '')} UTC`;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** ` [source map: o (https://.../app.min.js:3:61)]` for a source-mapped frame. */
function minified(raw: unknown): string {
  if (!isJsonObject(raw)) return '';
  const file = str(raw['abs_path']) ?? str(raw['filename']) ?? '?';
  const at = [raw['lineno'], raw['colno']]
    .filter((n) => typeof n === 'number')
    .map((n) => `:${n}`)
    .join('');
  return ` [source map: ${str(raw['function']) ?? '?'} (${file}${at})]`;
}

/** `function (file:line)`, then its context line, for one frame. */
function frameLines(frame: JsonObject): string[] {
  const file =
    str(frame['filename']) ??
    str(frame['abs_path']) ??
    str(frame['module']) ??
    '?';
  const line = typeof frame['lineno'] === 'number' ? `:${frame['lineno']}` : '';
  const header = `${str(frame['function']) ?? '?'} (${file}${line})${minified(frame['raw'])}`;
  const context = str(frame['context_line']);
  return context === undefined ? [header] : [header, `    ${context.trim()}`];
}

function release(value: string | null): string {
  return value ? ` (release ${inlineCode(value)})` : '';
}

/**
 * The Markdown description of an issue created from an error: a link to
 * the error, first and last seen with their releases, event and user
 * counts, and the latest event's stack trace, crash frame first.
 */
export function issueDescription(
  error: ErrorRecord,
  errorUrl: string,
  latestPayload: JsonObject | undefined,
): string {
  const lines = [
    `**Error:** [${markdownText(error.title)}](${errorUrl})`,
    '',
    `- **First seen:** ${utc(error.firstSeen)}${release(error.firstRelease)}`,
    `- **Last seen:** ${utc(error.lastSeen)}${release(error.lastRelease)}`,
    `- **Events:** ${error.count}`,
    `- **Users:** ${error.userCount}`,
  ];
  if (error.culprit) lines.push(`- **Culprit:** ${inlineCode(error.culprit)}`);
  const frames = latestPayload ? stackFrames(latestPayload) : [];
  if (frames.length > 0) {
    const trace = [...frames].reverse().flatMap(frameLines).join('\n');
    const marks = codeFence(trace);
    lines.push('', '### Stack trace', '', marks, trace, marks);
  }
  return `${lines.join('\n')}\n`;
}
