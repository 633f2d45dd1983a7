import type { Random } from './random';

export type Doc = Record<string, unknown>;

const NAMES = [
  'Apple',
  'apple',
  'APPLE pie',
  'Banana',
  'banana',
  'Kiwi',
  'kiwi fruit',
  'Orange',
  'x',
  '',
];
const WORDS = [
  'red',
  'Red',
  'green',
  'ripe',
  'bio',
  'line\nbreak',
  'a.b',
  "O'Brien",
];

/** A value of any JSON type, small. */
export function scalar(random: Random): unknown {
  return random.pick<() => unknown>([
    () => random.pick(NAMES),
    () => random.int(-5, 20),
    () => random.int(-50, 200) / 4,
    () => random.chance(0.5),
    () => null,
    () => random.pick(WORDS),
    () => String(random.int(0, 9)),
  ])();
}

function item(random: Random): Doc {
  const doc: Doc = {};
  if (random.chance(0.85))
    doc['name'] = random.chance(0.9) ? random.pick(NAMES) : scalar(random);
  if (random.chance(0.8))
    doc['measurement'] = random.pick(['un', 'kg', null, 'KG']);
  if (random.chance(0.8))
    doc['quantity'] = random.chance(0.5)
      ? String(random.int(0, 30))
      : random.int(0, 30);
  if (random.chance(0.7))
    doc['price'] = random.pick([
      random.int(0, 400) / 4,
      `${random.int(0, 9)},${random.int(0, 99)}`,
      null,
    ]);
  return doc;
}

/** A marketplace-like record with nested objects, arrays, gaps and mixed types. */
export function randomDocument(random: Random, index: number): Doc {
  const doc: Doc = { _id: `d${String(index).padStart(4, '0')}` };
  const maybe = (p: number, key: string, make: () => unknown) => {
    if (random.chance(p)) doc[key] = make();
  };
  maybe(0.85, 'name', () =>
    random.chance(0.8) ? random.pick(NAMES) : scalar(random),
  );
  maybe(0.7, 'measurement', () => random.pick(['un', 'kg', null, 1]));
  // qty holds integers only: $mod is tested on it, and mingo's $mod (unlike
  // MongoDB's) applies JavaScript's % to null and to numeric text.
  maybe(0.8, 'qty', () => random.int(-5, 30));
  maybe(0.8, 'price', () =>
    random.pick<() => unknown>([
      () => random.int(0, 400) / 4,
      () => String(random.int(0, 9)),
      () => null,
      () => random.many(random.int(0, 3), () => random.int(0, 100) / 4),
      () => true,
    ])(),
  );
  maybe(0.6, 'canceled', () => random.pick(['true', 'false', true, false]));
  // tags is an array or missing: $all and $size are tested on it.
  maybe(0.7, 'tags', () =>
    random.many(random.int(0, 4), () =>
      random.chance(0.1)
        ? [random.int(0, 3), random.int(0, 3)]
        : random.chance(0.7)
          ? random.pick(WORDS)
          : scalar(random),
    ),
  );
  maybe(0.8, 'available', () =>
    random.many(random.int(0, 4), () => item(random)),
  );
  maybe(0.7, 'meta', () =>
    random.chance(0.85)
      ? {
          ...(random.chance(0.8) ? { a: scalar(random) } : {}),
          ...(random.chance(0.7)
            ? {
                b: {
                  c: random.chance(0.8) ? random.pick(WORDS) : scalar(random),
                },
              }
            : {}),
        }
      : scalar(random),
  );
  maybe(0.6, 'scores', () =>
    random.many(random.int(0, 5), () => random.int(0, 10)),
  );
  return doc;
}
