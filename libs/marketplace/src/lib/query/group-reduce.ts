import { MarketplaceError } from '../common/marketplace.errors';

/** One aggregate a recognised reduce function computes. */
export type Reduction =
  | { kind: 'count'; out: string }
  | { kind: 'sum' | 'min' | 'max'; out: string; field: string }
  | { kind: 'average'; out: string; counter: string; field: string };

const FIELD = String.raw`doc\[("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\]`;
const HEAD = String.raw`^function\(doc,out\)\{`;
const TAIL = String.raw`(?:returnout;)?\};?$`;

/**
 * The reduce functions of the Kinvey SDKs (count, sum, min, max, average, in
 * their 1.x and 7.x spellings), matched on their text with whitespace
 * outside string literals removed. Nothing else is accepted, and nothing is
 * ever executed.
 */
const TEMPLATES: {
  pattern: RegExp;
  build: (m: RegExpExecArray) => Reduction;
}[] = [
  {
    pattern: new RegExp(`${HEAD}out\\.(\\w+)(?:\\+=1|\\+\\+);${TAIL}`),
    build: (m) => ({ kind: 'count', out: group(m, 1) }),
  },
  {
    pattern: new RegExp(`${HEAD}out\\.(\\w+)\\+=${FIELD};${TAIL}`),
    build: (m) => ({ kind: 'sum', out: group(m, 1), field: literal(m, 2) }),
  },
  ...(['min', 'max'] as const).map((kind) => ({
    pattern: new RegExp(
      `${HEAD}out\\.(\\w+)=Math\\.${kind}\\(out\\.\\1,${FIELD}\\);${TAIL}`,
    ),
    build: (m: RegExpExecArray): Reduction => ({
      kind,
      out: group(m, 1),
      field: literal(m, 2),
    }),
  })),
  {
    pattern: new RegExp(
      `${HEAD}out\\.(\\w+)=\\(out\\.\\1\\*out\\.(\\w+)\\+${FIELD}\\)/\\(out\\.\\2\\+1\\);out\\.\\2\\+=1;${TAIL}`,
    ),
    build: (m) => ({
      kind: 'average',
      out: group(m, 1),
      counter: group(m, 2),
      field: literal(m, 3),
    }),
  },
];

function group(match: RegExpExecArray, index: number): string {
  return match[index] ?? '';
}

/** The SDKs quote the field as a JavaScript string literal. */
function literal(match: RegExpExecArray, index: number): string {
  return group(match, index).slice(1, -1).replace(/\\(.)/g, '$1');
}

function withoutWhitespace(source: string): string {
  let out = '';
  let quote = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? '';
    if (quote) {
      out += c;
      if (c === '\\') out += source[++i] ?? '';
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
      out += c;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

export function recogniseReduce(source: unknown): Reduction {
  if (typeof source !== 'string' || source.length > 2000) {
    throw MarketplaceError.featureUnavailable(
      'reduce must be one of the SDK aggregations',
    );
  }
  const text = withoutWhitespace(source);
  for (const template of TEMPLATES) {
    const match = template.pattern.exec(text);
    if (match) return template.build(match);
  }
  throw MarketplaceError.featureUnavailable(
    'Only the count, sum, min, max and average reduce functions of the Kinvey SDKs are supported',
  );
}
