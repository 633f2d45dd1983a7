import { TransportError, TransportErrorKind } from '@quitanda/kernel';

/**
 * Deepest nesting of objects and arrays a request body (or a JSON query
 * parameter) may have. Real payloads stay far below it; far deeper ones
 * overflow the stack of recursive walkers downstream (validation,
 * class-transformer, JSON.stringify, PostgreSQL's jsonb parser).
 */
export const MAX_JSON_DEPTH = 64;

const NUL = '\u0000';

/** `String.prototype.isWellFormed` (ES2024; Node 20 has it, our TS lib not yet). */
const isWellFormed = (
  String.prototype as unknown as { isWellFormed(this: string): boolean }
).isWellFormed;

function nulError(field: string): TransportError {
  return new TransportError(
    TransportErrorKind.InvalidRequest,
    'The request contains a NUL character (U+0000), which cannot be stored.',
    [{ field, message: 'must not contain a NUL character' }],
  );
}

function surrogateError(field: string): TransportError {
  return new TransportError(
    TransportErrorKind.InvalidRequest,
    'The request contains a lone surrogate (\\uD800-\\uDFFF), which is not Unicode text.',
    [{ field, message: 'must be valid Unicode' }],
  );
}

/** NUL and lone surrogates: text PostgreSQL refuses (as text, jsonb or jsonpath). */
function assertStorable(text: string, field: string): void {
  if (text.includes(NUL)) throw nulError(field);
  if (!isWellFormed.call(text)) throw surrogateError(field);
}

function depthError(): TransportError {
  return new TransportError(
    TransportErrorKind.MalformedBody,
    `The JSON is nested deeper than ${MAX_JSON_DEPTH} levels.`,
  );
}

function joinPath(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

/**
 * Refuses what PostgreSQL cannot take as text (a NUL or a lone surrogate in
 * any string or key) and JSON nested deeper than `MAX_JSON_DEPTH`. Walks iteratively, so a
 * hostile value cannot overflow the stack here either. `field` names the
 * value in the error (`(body)`, a query parameter).
 */
export function assertSafeJson(value: unknown, field = '(body)'): void {
  if (typeof value === 'string') {
    assertStorable(value, field);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const stack: [object, number, string][] = [[value, 1, '']];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [container, depth, path] = next;
    if (depth > MAX_JSON_DEPTH) throw depthError();
    for (const [key, inner] of Object.entries(container)) {
      assertStorable(key, joinPath(path, key));
      if (typeof inner === 'string') {
        assertStorable(inner, joinPath(path, key) || field);
      } else if (inner !== null && typeof inner === 'object') {
        stack.push([inner as object, depth + 1, joinPath(path, key)]);
      }
    }
  }
}

/** `%00` anywhere in the path or query (a raw NUL never gets past Node's parser). */
const ENCODED_NUL = /%00/;

/** The same refusal for a request's URL: its path segments and query. */
export function assertSafeUrl(url: string): void {
  if (ENCODED_NUL.test(url)) throw nulError('(url)');
}

/**
 * Both checks on a request whose body is parsed: the error to pass on, or
 * undefined (for middleware that reports failures through `next`).
 */
export function unsafeRequestError(req: {
  readonly originalUrl: string;
  readonly body?: unknown;
}): unknown {
  try {
    assertSafeUrl(req.originalUrl);
    assertSafeJson(req.body);
    return undefined;
  } catch (error) {
    return error;
  }
}
