import { MarketplaceError } from '../common/marketplace.errors';

const MAX_PATTERN_LENGTH = 1000;
const MAX_REPEAT = 255; // PostgreSQL's limit for {m,n}

/**
 * A MongoDB `$regex` (+ `$options`) as a PostgreSQL advanced regular
 * expression. The pattern must be valid JavaScript (mingo's dialect) and is
 * rewritten token by token, so nothing PostgreSQL reads differently (`\b`,
 * `[[:`, `\x41`) slips through; constructs without an equivalent are refused.
 */
export function toPostgresRegex(pattern: unknown, options: unknown): string {
  if (typeof pattern !== 'string') {
    throw MarketplaceError.invalidQuery('$regex needs a string');
  }
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw MarketplaceError.invalidQuery(
      `$regex is longer than ${MAX_PATTERN_LENGTH}`,
    );
  }
  const flags = parseOptions(options);
  const source = flags.has('x') ? stripExtended(pattern) : pattern;
  try {
    new RegExp(source);
  } catch (error) {
    throw MarketplaceError.invalidQuery(
      `$regex is not valid: ${(error as Error).message}`,
    );
  }
  return `(?${embeddedOptions(flags)})${translate(source)}`;
}

function parseOptions(options: unknown): Set<string> {
  if (options === undefined) return new Set();
  if (typeof options !== 'string' || !/^[imsx]*$/.test(options)) {
    throw MarketplaceError.invalidQuery(
      '$options accepts only the letters i, m, s and x',
    );
  }
  return new Set(options);
}

/** JavaScript's `.`/`^`/`$` rules for the s and m flags, as ARE options. */
function embeddedOptions(flags: Set<string>): string {
  const newline =
    flags.has('s') && flags.has('m')
      ? 'w'
      : flags.has('s')
        ? 's'
        : flags.has('m')
          ? 'n'
          : 'p';
  return (flags.has('i') ? 'i' : '') + newline;
}

/** The x option: unescaped whitespace and `#` comments outside classes go. */
function stripExtended(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

function unsupported(what: string): never {
  throw MarketplaceError.featureUnavailable(`$regex: ${what} is not supported`);
}

function hex(code: string): string {
  return `\\u${code.padStart(4, '0')}`;
}

/** An escape sequence `\c...` starting at `pattern[i]` (the backslash). */
function escape(
  pattern: string,
  i: number,
  inClass: boolean,
): [string, number] {
  const c = pattern[i + 1] ?? '';
  if ('dws'.includes(c)) return [`\\${c}`, 2];
  if ('DWS'.includes(c)) {
    if (inClass) unsupported(`\\${c} inside [...]`);
    return [`\\${c}`, 2];
  }
  if (c === 'b') return [inClass ? hex('8') : '\\y', 2];
  if (c === 'B') {
    if (inClass) unsupported('\\B inside [...]');
    return ['\\Y', 2];
  }
  if ('nrtfv'.includes(c)) return [`\\${c}`, 2];
  if (c === 'x') {
    const code = /^[0-9a-fA-F]{2}/.exec(pattern.slice(i + 2));
    if (!code) unsupported('\\x without two hex digits');
    return [hex(code[0]), 4];
  }
  if (c === 'u') {
    const code = /^[0-9a-fA-F]{4}/.exec(pattern.slice(i + 2));
    if (!code) unsupported('\\u without four hex digits');
    if (code[0] === '0000') unsupported('the NUL character');
    return [hex(code[0]), 6];
  }
  if (/[0-9]/.test(c)) unsupported('back references and \\0');
  if (/[a-zA-Z]/.test(c)) {
    if ('cpPk'.includes(c)) unsupported(`\\${c}`);
    return [c, 2]; // an identity escape: the letter itself
  }
  return [`\\${c}`, 2];
}

/**
 * A character class. A `-` that JavaScript reads as a literal (beside a
 * class escape, first or last) moves to the end, where PostgreSQL also
 * reads it as one.
 */
function bracket(pattern: string, start: number): [string, number] {
  let i = start + 1;
  let head = '[';
  if (pattern[i] === '^') {
    head += '^';
    i++;
  }
  if (pattern[i] === ']') unsupported('[] and [^]');
  const items: { text: string; single: boolean }[] = [];
  while (i < pattern.length && pattern[i] !== ']') {
    const c = pattern[i] ?? '';
    if (c === '\\') {
      const [text, length] = escape(pattern, i, true);
      items.push({ text, single: !/^\\[dws]$/.test(text) });
      i += length;
    } else {
      items.push({ text: c === '[' ? '\\[' : c, single: c !== '-' });
      i++;
    }
  }
  let body = '';
  let dash = '';
  for (let n = 0; n < items.length; n++) {
    const item = items[n];
    const to = items[n + 2];
    if (item?.single && items[n + 1]?.text === '-' && to?.single) {
      body += `${item.text}-${to.text}`;
      n += 2;
    } else if (item?.text === '-' || item?.text === '\\-') {
      dash = '-';
    } else {
      body += item?.text ?? '';
    }
  }
  return [`${head}${body}${dash}]`, i + 1 - start];
}

function group(pattern: string, i: number): [string, number] {
  const head = pattern.slice(i, i + 4);
  for (const prefix of ['(?:', '(?=', '(?!', '(?<=', '(?<!']) {
    if (head.startsWith(prefix)) return [prefix, prefix.length];
  }
  if (head.startsWith('(?')) unsupported('named groups');
  return ['(', 1];
}

function brace(pattern: string, i: number): [string, number] {
  const bound = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
  if (!bound) return ['\\{', 1];
  const numbers = [bound[1], bound[3]].filter((n) => n !== undefined && n);
  if (numbers.some((n) => Number(n) > MAX_REPEAT)) {
    unsupported(`a repetition count above ${MAX_REPEAT}`);
  }
  return [bound[0], bound[0].length];
}

/**
 * PostgreSQL expands counted repetitions when it compiles (`(a{255}){255}`
 * fails as "too complex"); estimate the expanded size and refuse early.
 */
const MAX_EXPANDED = 10_000;

function translate(pattern: string): string {
  let out = '';
  let i = 0;
  const groups: boolean[] = []; // true for lookaround groups
  const outer: number[] = []; // expanded size before each open group
  let size = 0;
  let last = 0; // expanded size of the latest atom
  while (i < pattern.length) {
    const c = pattern[i] ?? '';
    let piece: [string, number];
    if (c === '\\') piece = escape(pattern, i, false);
    else if (c === '[') piece = bracket(pattern, i);
    else if (c === '(') {
      piece = group(pattern, i);
      groups.push(piece[1] > 1 && piece[0] !== '(?:');
      outer.push(size);
      size = 0;
    } else if (c === ')') {
      // JavaScript lets a lookaround take a quantifier; PostgreSQL does not.
      if (groups.pop() && /^[*+?{]/.test(pattern.slice(i + 1))) {
        unsupported('a quantifier on a lookaround');
      }
      last = size;
      size = (outer.pop() ?? 0) + size;
      piece = [c, 1];
    } else if (c === '{') {
      piece = brace(pattern, i);
      const counts = piece[0].match(/\d+/g) ?? [];
      const most = Math.max(0, ...counts.map(Number));
      if (piece[0] !== '\\{' && most > 1) size += last * (most - 1);
    } else if (c === '}') piece = ['\\}', 1];
    else piece = [c, 1];
    if (!'(){*+?|^$'.includes(c)) {
      last = 1;
      size += 1;
    }
    if (size > MAX_EXPANDED) unsupported('a regular expression this large');
    out += piece[0];
    i += piece[1];
  }
  return out;
}
