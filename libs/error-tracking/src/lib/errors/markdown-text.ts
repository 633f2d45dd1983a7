/**
 * Event-supplied text (titles, releases, transactions, frames) put into
 * the Markdown of an issue: it must read as written and never turn into
 * headings, links or HTML, whatever it holds.
 */

/** ASCII punctuation: CommonMark makes any of it literal after a backslash. */
const PUNCTUATION = /[!-/:-@[-`{-~]/g;
/** Line endings and other controls: in inline text they could start a block. */
const CONTROLS = /\p{Cc}+/gu;

function oneLine(text: string): string {
  return text.replace(CONTROLS, ' ');
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/** Plain inline text, every Markdown character escaped. */
export function markdownText(text: string): string {
  return oneLine(text).replace(PUNCTUATION, '\\$&');
}

/**
 * An inline code span around any text: delimited by a backtick run longer
 * than any inside, padded where CommonMark would otherwise eat an edge.
 */
export function inlineCode(text: string): string {
  const line = oneLine(text);
  const marks = '`'.repeat(longestBacktickRun(line) + 1);
  const pad =
    line.startsWith('`') ||
    line.endsWith('`') ||
    (line.startsWith(' ') && line.endsWith(' '))
      ? ' '
      : '';
  return `${marks}${pad}${line}${pad}${marks}`;
}

/** A code fence longer than any backtick run inside the block. */
export function codeFence(block: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(block) + 1));
}
