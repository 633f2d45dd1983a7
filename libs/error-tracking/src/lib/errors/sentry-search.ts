import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { ErrorStatus } from './error.types';

/** Longest query, and most terms, a search takes. */
export const MAX_SEARCH_LENGTH = 1_000;
export const MAX_SEARCH_TERMS = 20;

export type Comparison = '>' | '>=' | '<' | '<=' | '=';

/** One term of a search, all of which must hold. */
export type SearchTerm =
  /** The free words, as one text: in title, message, culprit, exception values or tag values. */
  | { readonly kind: 'text'; readonly text: string }
  /** `key:value` / `!key:value`; a `*` in the value matches any run of characters. */
  | {
      readonly kind: 'tag';
      readonly key: string;
      readonly value: string;
      readonly negated: boolean;
    }
  | { readonly kind: 'has'; readonly key: string; readonly negated: boolean }
  | {
      readonly kind: 'status';
      readonly status: ErrorStatus;
      readonly negated: boolean;
    }
  | {
      readonly kind: 'time';
      readonly field: TimeField;
      readonly op: Exclude<Comparison, '='>;
      readonly at: Date;
    }
  | {
      readonly kind: 'count';
      readonly field: 'times_seen';
      readonly op: Comparison;
      readonly value: number;
    };

export type TimeField = 'firstSeen' | 'lastSeen' | 'timestamp';

/** What is searched: an error list, or one error's events. */
export type SearchScope = 'errors' | 'events';

/** Sentry's `is:` statuses; `muted` and `archived` are older and newer names of ignored. */
export const SENTRY_STATUSES: Readonly<Record<string, ErrorStatus>> = {
  unresolved: 'unresolved',
  resolved: 'resolved',
  ignored: 'ignored',
  muted: 'ignored',
  archived: 'ignored',
};

/** Keys that name something of the error, not a tag: they apply to errors only. */
const ERROR_FIELDS = new Set(['is', 'firstSeen', 'lastSeen', 'times_seen']);
/** Sentry keys for what is not stored here: refused, so a search never silently widens. */
const UNSUPPORTED = new Set([
  'assigned',
  'assigned_or_suggested',
  'bookmarks',
  'subscribed',
  'age',
  'issue.category',
  'issue.type',
  'issue.priority',
  'first_release',
  'firstRelease',
]);

const KEY = /^[A-Za-z_][\w.-]*$/;
const UNITS: Readonly<Record<string, number>> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
const DAY_MS = 86_400_000;

function fault(message: string): ErrorTrackingError {
  return ErrorTrackingError.badRequest(`query: ${message}`);
}

interface Token {
  readonly negated: boolean;
  /** Absent for free text. */
  readonly key?: string;
  readonly value: string;
  /** Whether the value was quoted (free text keeps its spaces). */
  readonly quoted: boolean;
}

/** A quoted string from `start` (its opening quote): its text and the index after it. */
function readQuoted(text: string, start: number): [string, number] {
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
      value += text[i + 1];
      i++;
    } else if (c === '"') return [value, i + 1];
    else value += c;
  }
  throw fault(`a quote opened at character ${start + 1} is never closed`);
}

/** Splits a search into its tokens: `[!]key:value`, `[!]key:"quoted value"`, words, quoted phrases. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i] as string)) {
      i++;
      continue;
    }
    if (text[i] === '"') {
      const [value, next] = readQuoted(text, i);
      tokens.push({ negated: false, value, quoted: true });
      i = next;
      continue;
    }
    let end = i;
    // `tags[...]` may hold a colon (Sentry's keys allow one).
    const open = /^!?tags\[/.exec(text.slice(i));
    const close = open ? text.indexOf(']', i) : -1;
    if (close !== -1 && !/\s/.test(text.slice(i, close))) end = close + 1;
    while (end < text.length && !/[\s:"]/.test(text[end] as string)) end++;
    const head = text.slice(i, end);
    const negated = head.startsWith('!');
    const key = negated ? head.slice(1) : head;
    // `tags[any key]:value`, Sentry's form for keys its grammar cannot write.
    const bracketed = /^tags\[([^\]]+)\]$/.exec(key);
    // `https://...` is text, not a key.
    const url = text.startsWith('//', end + 1);
    if (text[end] === ':' && !url && (KEY.test(key) || bracketed)) {
      let value: string;
      let quoted = false;
      let next = end + 1;
      if (text[next] === '"') {
        [value, next] = readQuoted(text, next);
        quoted = true;
      } else {
        const stop = text.slice(next).search(/\s/);
        const until = stop === -1 ? text.length : next + stop;
        value = text.slice(next, until);
        next = until;
      }
      if (value === '' && !quoted)
        throw fault(`${head}: needs a value (quote an empty one: ${head}:"")`);
      tokens.push({
        negated,
        key: bracketed ? (bracketed[1] as string) : key,
        value,
        quoted,
      });
      i = next;
      continue;
    }
    // A word: up to the next space (a colon or quote inside it is text).
    const stop = text.slice(i).search(/\s/);
    const until = stop === -1 ? text.length : i + stop;
    tokens.push({ negated: false, value: text.slice(i, until), quoted: false });
    i = until;
  }
  return tokens;
}

function comparison(value: string): [Comparison | undefined, string] {
  const match = /^(>=|<=|>|<|=)?(.*)$/.exec(value) as RegExpExecArray;
  return [match[1] as Comparison | undefined, match[2] as string];
}

/** `-24h` (within the last 24 hours), `+14d` (longer ago), or an ISO date or time with an operator. */
function timeTerms(key: TimeField, value: string, now: Date): SearchTerm[] {
  const relative = /^([+-])(\d{1,6})([smhdw])$/.exec(value);
  if (relative) {
    const at = new Date(
      now.getTime() -
        Number(relative[2]) * (UNITS[relative[3] as string] as number),
    );
    return [
      { kind: 'time', field: key, op: relative[1] === '-' ? '>=' : '<', at },
    ];
  }
  const [op, rest] = comparison(value);
  const date = /^\d{4}-\d{2}-\d{2}$/.test(rest);
  const time =
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/.test(
      rest,
    );
  const at =
    date || time
      ? new Date(
          time && !/(Z|[+-]\d{2}:?\d{2})$/.test(rest) ? `${rest}Z` : rest,
        )
      : undefined;
  if (!at || Number.isNaN(at.getTime()))
    throw fault(
      `${key}:${value} is not a time (a relative one such as -24h or -14d, or an ISO date such as >2026-11-01)`,
    );
  if (op === undefined || op === '=') {
    if (!date)
      throw fault(
        `${key}:${value} needs an operator (>, >=, < or <=) before a time of day`,
      );
    // A bare date is that whole UTC day.
    return [
      { kind: 'time', field: key, op: '>=', at },
      {
        kind: 'time',
        field: key,
        op: '<',
        at: new Date(at.getTime() + DAY_MS),
      },
    ];
  }
  return [{ kind: 'time', field: key, op, at }];
}

function countTerm(value: string): SearchTerm {
  const [op, rest] = comparison(value);
  if (!/^\d{1,15}$/.test(rest))
    throw fault(`times_seen:${value} is not a count (such as >10 or 3)`);
  return {
    kind: 'count',
    field: 'times_seen',
    op: op ?? '=',
    value: Number(rest),
  };
}

function statusTerm(value: string, negated: boolean): SearchTerm {
  const status = SENTRY_STATUSES[value];
  if (!status)
    throw fault(
      `is:${value} is not a status (unresolved, resolved or ignored)`,
    );
  return { kind: 'status', status, negated };
}

function keyTerms(
  token: Token & { key: string },
  scope: SearchScope,
  now: Date,
): SearchTerm[] {
  const { key, value, negated } = token;
  if (UNSUPPORTED.has(key))
    throw fault(`${key}: is not stored here, so it cannot be searched`);
  if (scope === 'events' && ERROR_FIELDS.has(key))
    throw fault(
      `${key}: describes an error, not its events (search events by their tags, or by timestamp:)`,
    );
  if (scope === 'errors' && key === 'timestamp')
    throw fault(
      'timestamp: describes events; errors have firstSeen: and lastSeen:',
    );
  switch (key) {
    case 'is':
      return [statusTerm(value, negated)];
    case 'has':
      if (!KEY.test(value) && !/^tags\[[^\]]+\]$/.test(value))
        throw fault(`has:${value} does not name a tag key`);
      return [
        {
          kind: 'has',
          key: value.replace(/^tags\[([^\]]+)\]$/, '$1'),
          negated,
        },
      ];
    case 'firstSeen':
    case 'lastSeen':
    case 'timestamp':
      if (negated) throw fault(`!${key}: cannot be negated; use > or <`);
      return timeTerms(key, value, now);
    case 'times_seen':
      if (negated) throw fault('!times_seen: cannot be negated; use > or <');
      return [countTerm(value)];
    default:
      return [{ kind: 'tag', key, value, negated }];
  }
}

/**
 * Parses Sentry's search syntax for what is stored here: free text, `key:value`
 * and `!key:value` for any tag (`level`, `release`, `environment`,
 * `user.email` are tags too), `has:key`, `is:<status>`,
 * `firstSeen:`/`lastSeen:` (errors) or `timestamp:` (events) with a relative
 * or absolute time, `times_seen:` with a comparison; quoted values. Every
 * fault is a 400 naming it.
 */
export function parseSearch(
  text: string,
  scope: SearchScope,
  now: Date,
): SearchTerm[] {
  if (text.length > MAX_SEARCH_LENGTH)
    throw fault(`at most ${MAX_SEARCH_LENGTH} characters`);
  const terms: SearchTerm[] = [];
  const words: string[] = [];
  for (const token of tokenize(text)) {
    if (token.key === undefined) {
      if (token.value !== '') words.push(token.value);
      continue;
    }
    terms.push(...keyTerms(token as Token & { key: string }, scope, now));
  }
  // Sentry reads the free words as one text, in their order.
  const free = words.join(' ').trim();
  if (free !== '') terms.push({ kind: 'text', text: free });
  if (terms.length > MAX_SEARCH_TERMS)
    throw fault(`at most ${MAX_SEARCH_TERMS} terms`);
  return terms;
}
