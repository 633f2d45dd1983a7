/** RFC 9110's token: what a type, subtype or parameter name may hold. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** A parameter value: a token, or a quoted string without control characters. */
const VALUE = `(?:${TOKEN}|"(?:[^"\\\\\\x00-\\x1f\\x7f]|\\\\[^\\x00-\\x1f\\x7f])*")`;
const MEDIA_TYPE = new RegExp(
  `^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=${VALUE})*$`,
);
/** Longer than any registered type with its parameters. */
const MAX_LENGTH = 255;

/**
 * Whether `value` can be sent as a Content-Type header: `type/subtype`
 * with parameters, nothing that would break the header or the response.
 */
export function isMediaType(value: string): boolean {
  return value.length <= MAX_LENGTH && MEDIA_TYPE.test(value);
}
