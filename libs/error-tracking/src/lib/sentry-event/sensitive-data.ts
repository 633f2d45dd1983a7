import { isJsonObject } from './event-json';

/**
 * Sentry's default data scrubbing ("Use Default Scrubbers", Relay's
 * `@common:filter`), the one rule every stored event went through: a value
 * under a sensitive key, or a text naming a credential, becomes this.
 */
export const FILTERED = '[Filtered]';

/**
 * Keys whose values are credentials wherever they appear: Relay's password
 * rule (`password`, `secret`, ..., `otp`, `two_factor`), its token rule,
 * and the session and CSRF names it filters among cookies.
 */
const SENSITIVE_KEY =
  /password|secret|passwd|api[-_]?key|auth|credentials|mysql_pwd|private[-_]?key|token|session|csrf|xsrf|^otp$|^two[-_]factor$/i;

/**
 * Texts Relay filters whole because they name a credential (`token` only
 * as `token=...` or `token: ...`: the word alone is too common).
 */
const SENSITIVE_TEXT =
  /password|secret|passwd|api[-_]?key|auth|credentials|mysql_pwd|private[-_]?key|token\S*[:=]|^otp$|^two[-_]factor$/i;

/** Texts Relay leaves alone: nothing in them can be a secret. */
const PLAIN_TEXTS = new Set(['', 'true', 'false', 'null', 'undefined']);

/**
 * Parts of a text replaced by `[Filtered]`, each a whole match, with a
 * cheap test that must pass first: most texts skip every pattern.
 */
const SENSITIVE_PARTS: ReadonlyArray<[RegExp, RegExp]> = [
  [/bearer/i, /\bBearer\s+\S+/gi],
  // Card numbers of Amex, Visa, Mastercard and Discover, dashes or spaces anywhere.
  [/\d{4}/, /\b(?:3[47]\d|4\d{3}|5[1-5]\d\d|65\d\d|6011)(?:[-\s]?\d){12}\b/g],
  // US social security numbers.
  [/\d-\d/, /\b\d{3}-\d{2}-\d{4}\b/g],
];

/** The body of a PEM key and the password of a URL's user, kept around. */
const PEM_KEY =
  /(-----BEGIN[A-Z ]+(?:PRIVATE|PUBLIC) KEY-----[\t ]*\r?\n?)([\s\S]+?)(\r?\n?-----END[A-Z ]+(?:PRIVATE|PUBLIC) KEY-----)/g;
const URL_PASSWORD =
  /\b((?:[a-z0-9]+:)?\/\/[a-zA-Z0-9%_.-]+:)([a-zA-Z0-9%_.-]+)@/gi;

/** Containers nest at most this deep in a stored event (the payload limit). */
const DEPTH_MAX = 32;

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEY.test(key);
}

/** A text with its bearer tokens, card numbers and key material filtered. */
export function scrubTextParts(text: string): string {
  let scrubbed = text;
  if (scrubbed.includes('-----BEGIN'))
    scrubbed = scrubbed.replace(PEM_KEY, `$1${FILTERED}$3`);
  if (scrubbed.includes('//') && scrubbed.includes('@'))
    scrubbed = scrubbed.replace(URL_PASSWORD, `$1${FILTERED}@`);
  for (const [likely, part] of SENSITIVE_PARTS)
    if (likely.test(scrubbed)) scrubbed = scrubbed.replace(part, FILTERED);
  return scrubbed;
}

/** A text filtered whole if it names a credential, else its parts. */
export function scrubText(text: string): string {
  if (PLAIN_TEXTS.has(text)) return text;
  if (SENSITIVE_TEXT.test(text)) return FILTERED;
  return scrubTextParts(text);
}

function isPair(value: readonly unknown[]): value is [string, unknown] {
  return value.length === 2 && typeof value[0] === 'string';
}

/**
 * Any JSON value scrubbed at every depth: texts by `scrubText`, the values
 * of sensitive keys (in objects and in `[key, value]` pairs, as headers and
 * query strings are sent) filtered whole. Booleans and null stay: they
 * carry no secret. Returns a copy; the value given is not changed.
 */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= DEPTH_MAX) return FILTERED;
  if (Array.isArray(value)) {
    if (isPair(value)) return [value[0], scrubEntry(value[0], value[1], depth)];
    return value.map((item) => scrubValue(item, depth + 1));
  }
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, scrubEntry(key, v, depth)]),
  );
}

/** The value of `key` scrubbed: filtered whole if the key is sensitive. */
export function scrubEntry(key: string, value: unknown, depth = 0): unknown {
  if (
    isSensitiveKey(key) &&
    value !== null &&
    value !== undefined &&
    typeof value !== 'boolean' &&
    value !== ''
  )
    return FILTERED;
  return scrubValue(value, depth + 1);
}
