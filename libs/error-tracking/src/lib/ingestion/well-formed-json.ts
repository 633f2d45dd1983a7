import { isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';

const LONE_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const LONE_SURROGATE_ESCAPE = /\\ud[89a-f]/;

function toWellFormed(value: string): string {
  return value.replace(LONE_SURROGATE, '\uFFFD');
}

/** Well-formed UTF-16 everywhere (jsonb refuses escaped lone surrogates). */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return toWellFormed(value);
  if (Array.isArray(value)) return value.map(wellFormed);
  if (isJsonObject(value)) {
    const result: JsonObject = {};
    for (const [k, v] of Object.entries(value))
      result[toWellFormed(k)] = wellFormed(v);
    return result;
  }
  return value;
}

/**
 * JSON that PostgreSQL's `json`/`jsonb` accepts: a lone surrogate (sent by
 * a client, or left by cutting a pair) becomes U+FFFD. JSON.stringify
 * escapes lone surrogates as \udXXX (lowercase); only then walk. The plain
 * search first: 0.08 us where the expression took 1.3 us over a 4.5 KB
 * event.
 */
export function wellFormedJson(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes('\\ud') && LONE_SURROGATE_ESCAPE.test(json)
    ? JSON.stringify(wellFormed(value))
    : json;
}
