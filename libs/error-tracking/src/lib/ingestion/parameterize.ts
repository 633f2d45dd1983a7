/**
 * Message parameterisation for grouping, with the kinds of value Sentry's
 * `grouping/parameterization.py` replaces, in its order (the first kind that
 * matches at a position wins): e-mails, URLs, IP addresses, UUIDs, SHA-1
 * and MD5 hashes, dates and times, durations, hex values, floats and
 * integers (its message strategy's list, less host names, trace headers and
 * quoted `key='value'` pairs, whose patterns can backtrack). Each matches whole tokens only, so `iso_40days` and
 * `iso_25days` stay two messages while `n=2` and `n=3` are one.
 *
 * Every alternative is anchored at a token's start (a word boundary or a
 * lookbehind) and bounded or free of nested quantifiers, so one pass is
 * linear in the message: no input makes it backtrack beyond a token.
 */

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const DAY = '(?:Sun|Mon|Tue|Wed|Thu|Fri|Sat)';
const LONG_DAY =
  '(?:Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sun|Mon|Tue|Wed|Thu|Fri|Sat)';
const ZONE = '(?:[-+]\\d{2}[0-5]\\d|UT|GMT|[ECMP][SD]T|[A-IK-Z])';
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const H16 = '[0-9a-fA-F]{1,4}';
/** Full, `::`-compressed and IPv4-suffixed IPv6 forms. */
const IPV6 = [
  `(?:${H16}:){7}${H16}`,
  `(?:${H16}:){1,7}:`,
  `(?:${H16}:){1,6}:${H16}`,
  `(?:${H16}:){1,5}(?::${H16}){1,2}`,
  `(?:${H16}:){1,4}(?::${H16}){1,3}`,
  `(?:${H16}:){1,3}(?::${H16}){1,4}`,
  `(?:${H16}:){1,2}(?::${H16}){1,5}`,
  `${H16}:(?::${H16}){1,6}`,
  `:(?::${H16}){1,7}`,
  `::(?:ffff(?::0{1,4})?:)?${IPV4}`,
  `(?:${H16}:){1,4}:${IPV4}`,
].join('|');
const ISO_DATE = '\\d{4}-?[01]\\d-?[0-3]\\d';
const CLOCK = '[0-2]\\d:?[0-5]\\d(?::?[0-5]\\d(?:\\.\\d+)?)?';

/** Each kind, named as Sentry names its placeholder. */
const KINDS: ReadonlyArray<readonly [string, string]> = [
  [
    'email',
    "(?<![\\w.!#$%&'*+/=?^`{|}~-])[\\w.!#$%&'*+/=?^`{|}~-]+@[a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)*",
  ],
  ['url', '\\b(?:wss?|https?|ftp)://[^\\s/$.?#].\\S*'],
  ['ip', `(?<!\\w)(?:${IPV6})(?![a-zA-Z0-9])|\\b${IPV4}\\b`],
  ['uuid', '\\b[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\\b'],
  ['sha1', '\\b[0-9a-fA-F]{40}\\b'],
  ['md5', '\\b[0-9a-fA-F]{32}\\b'],
  [
    'date',
    [
      // RFC 822 / 1123 and the like: `Mon, 02 Jan 2006 15:04:05 MST`.
      `${DAY},\\s\\d{1,2}\\s${MONTH}\\s\\d{2,4}\\s\\d{1,2}:\\d{1,2}(?::\\d{1,2})?\\s${ZONE}`,
      // `Mon Jan 02, 2006`, `Jan 02, 2006`.
      `(?:${DAY}\\s)?${MONTH}\\s[0-3]\\d,\\s\\d{2,4}`,
      // RFC 850: `Monday, 02-Jan-06 15:04:05 MST`.
      `${LONG_DAY},\\s\\d{2}-${MONTH}-\\d{2}\\s\\d{2}:\\d{2}:\\d{2}\\s${ZONE}`,
      // JavaScript's `Date.toString()`.
      `${DAY}\\s${MONTH}\\s\\d{2}\\s\\d{4}\\s\\d{2}:\\d{2}:\\d{2}\\sGMT[-+]\\d{4}(?:\\s\\([^)\\n]{1,64}\\))?`,
      // ISO 8601 / RFC 3339 date-times, with or without zone.
      `${ISO_DATE}[\\sT]${CLOCK}(?:Z|[-+][0-2]\\d:?[0-5]\\d)?`,
      // Clock times, 12-hour (with am/pm) and 24-hour.
      '(?<!\\d)(?:1[0-2]|[1-9]):[0-5]\\d(?::[0-5]\\d)?(?![\\d:])(?:\\s?[aApP][mM])?',
      '(?<!\\d)(?:2[0-3]|[01]?\\d):[0-5]\\d(?::[0-5]\\d)?(?![\\d:])',
      '\\d{4}-[01]\\d-[0-3]\\d',
      // `Jan 2 15:04:05 2006` (syslog, C's asctime).
      `\\b(?:${DAY}\\s+)?${MONTH}\\s+\\d{1,2}\\s+\\d{2}:\\d{2}:\\d{2}\\s+\\d{4}`,
    ].join('|'),
  ],
  ['duration', '\\b\\d+ms|(?<![\\d.])\\d+(?:\\.\\d+)?s\\b'],
  [
    'hex',
    '\\b0[xX][0-9a-fA-F]+\\b|\\b(?=[a-f]*\\d)[0-9a-f]{8,128}\\b|\\b(?=[A-F]*\\d)[0-9A-F]{8,128}\\b',
  ],
  ['float', '(?<!\\w)-\\d+\\.\\d+\\b|\\b\\d+\\.\\d+\\b'],
  ['int', '(?:\\b|(?<!\\w)-)\\d{1,7}\\b'],
];

const PARAMETER = new RegExp(
  KINDS.map(([name, pattern]) => `(?<${name}>${pattern})`).join('|'),
  'g',
);

/** The message with each value replaced by `<kind>` (`order <int> of <email>`). */
export function parameterize(message: string): string {
  return message.replace(PARAMETER, (...args: unknown[]) => {
    const groups = args[args.length - 1] as Record<string, string | undefined>;
    for (const [name] of KINDS)
      if (groups[name] !== undefined) return `<${name}>`;
    return '';
  });
}
