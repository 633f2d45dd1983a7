import { PAYLOAD_DEPTH_MAX } from './limits';

/**
 * Whether a parsed JSON value nests objects and arrays deeper than `limit`
 * (the value itself at depth 1). Iterative, like `JSON.parse` and
 * `cutDeepValues`, so a hostile depth cannot overflow the stack; on the
 * parsed value rather than its bytes, because a payload's bytes are mostly
 * strings: for a 4.5 KB event, 1.8 us against 9.4 us for a byte scan.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const containers: object[] = [value];
  const depths: number[] = [1];
  const visit = (item: unknown, depth: number): boolean => {
    if (item === null || typeof item !== 'object') return false;
    if (depth >= limit) return true;
    containers.push(item);
    depths.push(depth + 1);
    return false;
  };
  for (
    let container = containers.pop();
    container;
    container = containers.pop()
  ) {
    const depth = depths.pop() as number;
    if (Array.isArray(container)) {
      for (const item of container as unknown[])
        if (visit(item, depth)) return true;
    } else {
      // JSON.parse makes plain objects: every key is their own.
      for (const key in container)
        if (visit((container as Record<string, unknown>)[key], depth))
          return true;
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
 * before anything recursive sees them (V8's `JSON.parse` is itself
 * iterative: a million nested arrays parse), and `\u0000` is dropped (PostgreSQL
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
  if (nestsDeeperThan(value, PAYLOAD_DEPTH_MAX))
    value = cutDeepValues(value, PAYLOAD_DEPTH_MAX);
  return text.includes(NUL_ESCAPE) ? stripNul(value) : value;
}
