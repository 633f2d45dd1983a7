import { REQUEST_MESSAGES } from './request-logging.middleware';

type Entry = Record<string, unknown>;

function isRequestEntry(entry: Entry): boolean {
  return (
    REQUEST_MESSAGES.has(String(entry['msg'])) &&
    typeof entry['method'] === 'string' &&
    typeof entry['url'] === 'string' &&
    typeof entry['status'] === 'number' &&
    typeof entry['ms'] === 'number'
  );
}

/**
 * A log entry as a person at a terminal reads it. A request entry becomes
 * `GET /path 200 3 ms`: its id, address and user agent (kept in the JSON
 * lines) would wrap every request over two lines of a terminal.
 */
export function readableEntry(entry: Entry): Entry {
  if (!isRequestEntry(entry)) return entry;
  const { level, time } = entry;
  return {
    level,
    time,
    msg: `${String(entry['method'])} ${String(entry['url'])} ${String(entry['status'])} ${Math.round(Number(entry['ms']))} ms`,
  };
}
