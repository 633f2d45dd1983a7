import type { Random } from './random';

const KEYS = [
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$all',
  '$exists',
  '$mod',
  '$size',
  '$regex',
  '$options',
  '$elemMatch',
  '$not',
  '$and',
  '$or',
  '$nor',
  '$where',
  '$near',
  '$foo',
  '$',
  'a',
  'a.b',
  'a.0',
  'a.0.b',
  '',
  'a..b',
  'x.$y',
  "it's",
  '"; DROP TABLE x; --',
  'tags',
  'price',
  'a\nb',
  'é.ü',
  '\u2028',
  '\u0001',
  '1.2',
  '12345678901',
];
const STRINGS = [
  '',
  'a',
  "'; DROP TABLE query_docs; --",
  '\\',
  '[',
  '(?<n>a)',
  '\\b',
  'a{300}',
  '\u0000',
  '\ud800',
  '(',
  '*',
  'ims',
  'x',
  '$gt',
  'a.b',
  '\\x4',
  '[[:alpha:]]',
  '(?=a)*',
  '\\1',
  '[^]',
  '\\k<a>',
];

/** Arbitrary JSON, biased towards the shapes a query compiler must judge. */
export function randomJson(random: Random, depth = 0): unknown {
  const leaf = depth > 4 || random.chance(0.35);
  if (leaf) {
    return random.pick<() => unknown>([
      () => null,
      () => random.chance(0.5),
      () => random.int(-3, 3),
      () => random.pick([0.5, -0, 1e308, -1e308, 2 ** 53 + 1, 1e-7]),
      () => random.pick(STRINGS),
    ])();
  }
  if (random.chance(0.3)) {
    return random.many(random.int(0, 3), () => randomJson(random, depth + 1));
  }
  const object: Record<string, unknown> = {};
  for (let n = random.int(0, 3); n > 0; n--) {
    object[random.pick(KEYS)] = randomJson(random, depth + 1);
  }
  return object;
}
