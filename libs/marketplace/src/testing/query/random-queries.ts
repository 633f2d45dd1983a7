import type { Random } from './random';
import { scalar } from './random-documents';

type Filter = Record<string, unknown>;

const PATHS = [
  'name',
  'measurement',
  'qty',
  'price',
  'canceled',
  'tags',
  'available',
  'available.name',
  'available.price',
  'available.quantity',
  'available.measurement',
  'meta',
  'meta.a',
  'meta.b.c',
  'scores',
  'tags.0',
  'available.0.name',
  'price.1',
  'missing.field',
];
const REGEXES = [
  '^a',
  'pple',
  '^A.*e$',
  'an+a',
  'kiwi\\b',
  '^$',
  '[0-9]',
  'fruit$',
  '\\.',
  'r(ed|ipe)',
  'line.break',
  '^break',
];
const COMPARABLE = () => [
  1,
  5,
  10,
  2.5,
  'apple',
  'Banana',
  'kiwi',
  'un',
  '5',
  true,
  false,
  0,
];

/**
 * An equality operand. No `[]` on paths through `available`: mingo compares
 * the list of values it gathers there with `[]`, MongoDB does not.
 */
function value(random: Random, path: string): unknown {
  return random.pick<() => unknown>([
    () => scalar(random),
    () => random.pick(COMPARABLE()),
    () => null,
    () => [random.int(0, 3), random.int(0, 3)],
    () => ({ c: random.pick(['red', 'Red', 'green']) }),
    () => (path.startsWith('available.') ? null : []),
  ])();
}

/** A comparison operand never null (mingo differs from MongoDB there). */
function comparable(random: Random): unknown {
  return random.pick(COMPARABLE());
}

function scalars(random: Random): unknown[] {
  return random.many(random.int(0, 4), () =>
    random.chance(0.15) ? null : random.pick(COMPARABLE()),
  );
}

function regex(random: Random): Filter {
  const options = random.pick(['', 'i', 'm', 's', 'ms', 'i', 'x']);
  const pattern = random.pick(REGEXES);
  return options ? { $regex: pattern, $options: options } : { $regex: pattern };
}

function operators(random: Random, path: string, depth: number): Filter {
  const ops: Filter = {};
  const count = random.int(1, 2);
  for (let i = 0; i < count; i++) {
    const [op, operand] = random.pick<() => [string, unknown]>([
      () => ['$eq', value(random, path)],
      () => ['$ne', value(random, path)],
      () => [random.pick(['$gt', '$gte', '$lt', '$lte']), comparable(random)],
      () => ['$in', scalars(random)],
      () => ['$nin', scalars(random)],
      () => ['$exists', random.chance(0.5)],
      () => ['$regex', regex(random)],
      () => ['$not', operators(random, path, depth + 1)],
      ...(path === 'qty'
        ? [
            (): [string, unknown] => [
              '$mod',
              [random.int(2, 4), random.int(0, 1)],
            ],
          ]
        : []),
      ...(path === 'tags' || path === 'scores'
        ? [
            (): [string, unknown] => ['$size', random.int(0, 3)],
            (): [string, unknown] => [
              '$all',
              random.many(random.int(1, 2), () =>
                random.pick(['red', 'ripe', 'bio', 3, 7, 'Red']),
              ),
            ],
            (): [string, unknown] => [
              '$elemMatch',
              { $gte: random.int(0, 8), $lt: random.int(3, 10) },
            ],
          ]
        : []),
      ...(path === 'available'
        ? [
            (): [string, unknown] => [
              '$elemMatch',
              query(random, depth + 1, [
                'name',
                'measurement',
                'quantity',
                'price',
              ]),
            ],
            (): [string, unknown] => ['$size', random.int(0, 3)],
          ]
        : []),
    ])();
    if (op === '$regex') Object.assign(ops, operand);
    else ops[op] = operand;
  }
  return ops;
}

/** A random MongoDB filter over the fields randomDocument writes. */
export function query(
  random: Random,
  depth = 0,
  paths: readonly string[] = PATHS,
): Filter {
  const filter: Filter = {};
  const count = random.int(1, depth > 1 ? 1 : 2);
  for (let i = 0; i < count; i++) {
    if (depth < 2 && random.chance(0.2)) {
      const op = random.pick(['$and', '$or', '$nor']);
      filter[op] = random.many(random.int(1, 3), () =>
        query(random, depth + 1, paths),
      );
      continue;
    }
    const path = random.pick(paths);
    filter[path] = random.chance(0.35)
      ? value(random, path)
      : operators(random, path, depth);
  }
  return filter;
}
