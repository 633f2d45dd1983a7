import { PAYLOAD_DEPTH_MAX } from './limits';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests objects and arrays deeper than `limit`. A scan of
 * the bytes, cheaper than walking the parsed value, so that the common
 * shallow payload pays almost nothing.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

function placeholder(value: object): string {
  return Array.isArray(value) ? '[Array]' : '[Object]';
}

/**
 * Replaces, in place, every object or array nested deeper than `limit`
 * with a placeholder string, as Sentry's SDKs normalise deep values.
 * Iterative: the values it is for would overflow a recursive walk.
 */
export function cutDeepValues<T>(value: T, limit = PAYLOAD_DEPTH_MAX): T {
  if (value === null || typeof value !== 'object') return value;
  const stack: [Record<string, unknown>, number][] = [
    [value as Record<string, unknown>, 1],
  ];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [container, depth] = next;
    for (const key of Object.keys(container)) {
      const inner = container[key];
      if (inner === null || typeof inner !== 'object') continue;
      if (depth >= limit) container[key] = placeholder(inner);
      else stack.push([inner as Record<string, unknown>, depth + 1]);
    }
  }
  return value;
}

const NUL = String.fromCharCode(0);
const NUL_ESCAPE = Buffer.from('\\u0000');

/** Replaces `\u0000` in every string and key (PostgreSQL cannot store it). */
export function stripNul(value: unknown): unknown {
  if (typeof value === 'string')
    return value.includes(NUL) ? value.split(NUL).join('') : value;
  if (Array.isArray(value)) return value.map(stripNul);
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value))
      result[key.split(NUL).join('')] = stripNul(inner);
    return result;
  }
  return value;
}

/**
 * JSON.parse for anything a Sentry SDK sends (envelope and item headers,
 * item payloads): values nested deeper than `PAYLOAD_DEPTH_MAX` are cut
 * before anything recursive sees them, and `\u0000` is dropped (PostgreSQL
 * cannot store it), as the contract says.
 */
export function parsePayloadJson(
  bytes: Buffer,
  start = 0,
  end = bytes.length,
): unknown {
  const text =
    start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
  let value: unknown = JSON.parse(text.toString('utf8'));
  if (nestsDeeperThan(text, PAYLOAD_DEPTH_MAX))
    value = cutDeepValues(value, PAYLOAD_DEPTH_MAX);
  return text.includes(NUL_ESCAPE) ? stripNul(value) : value;
}
