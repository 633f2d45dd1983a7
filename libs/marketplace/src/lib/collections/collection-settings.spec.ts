import { MarketplaceErrorCode } from '../common/marketplace.errors';
import {
  checkCollectionName,
  parseCollectionSettings,
} from './collection-settings';
import { checkCollection, compileCollection } from './compiled-collection';

function failure(run: () => unknown): { code: string; debug: string } {
  try {
    run();
  } catch (error) {
    return error as { code: string; debug: string };
  }
  throw new Error('expected an error');
}

describe('collection settings', () => {
  it("takes Kinvey's collection names only", () => {
    expect(checkCollectionName('todo-items_2')).toBe('todo-items_2');
    for (const bad of ['', '_private', 'a b', 'a/b', 'x'.repeat(256), 7])
      expect(failure(() => checkCollectionName(bad)).code).toBe(
        MarketplaceErrorCode.BadRequest,
      );
  });

  it('names the first problem of bad settings', () => {
    for (const [settings, debug] of [
      [[], /object/],
      [{ permissions: 'public' }, /permissions/],
      [{ schema: 'string' }, /schema/],
      [{ unique: [{ field: '_id' }] }, /server field/],
      [
        { unique: 'abcdefghi'.split('').map((field) => ({ field })) },
        /at most 8 fields/,
      ],
      [{ unique: [{ field: 'a' }, { field: 'a', fold: ['case'] }] }, /twice/],
      [{ references: [{ field: 'a', to: 'group' }] }, /to must be/],
      [{ references: [{ field: 'a', to: 'collection' }] }, /collection/],
      [{ deltaSet: 1 }, /deltaSet/],
      [
        { permissions: 'private', unique: [{ field: 'email' }] },
        /private collection may not have unique fields/,
      ],
      [{ other: true }, /unknown setting other/],
    ] as const)
      expect(
        failure(() => parseCollectionSettings('things', settings, 1024)).debug,
      ).toMatch(debug);
  });

  it('takes only a level, shared or private, for the user collection', () => {
    expect(
      parseCollectionSettings('user', { permissions: 'private' }, 1024),
    ).toEqual({ permissions: 'private' });
    for (const [settings, debug] of [
      [{ permissions: 'full' }, /must be shared or private/],
      [{ schema: { type: 'object' } }, /only permissions, not schema/],
      [{ deltaSet: true }, /only permissions, not deltaSet/],
    ] as const)
      expect(
        failure(() => parseCollectionSettings('user', settings, 1024)).debug,
      ).toMatch(debug);
  });

  it('takes up to 8 unique fields, dotted paths included', () => {
    const unique = 'abcdefg'.split('').map((field) => ({ field }));
    unique.push({ field: 'h.i' });
    expect(
      parseCollectionSettings('things', { unique }, 1024).unique,
    ).toHaveLength(8);
  });

  it('refuses a schema over the size limit, and one Ajv cannot compile', () => {
    const big = { type: 'object', description: 'x'.repeat(2000) };
    expect(
      failure(() => parseCollectionSettings('things', { schema: big }, 1024))
        .debug,
    ).toMatch(/at most 1024/);
    expect(
      failure(() => compileCollection('c', { schema: { type: 'nope' } })).debug,
    ).toMatch(/^schema:/);
  });

  it.each([
    ['itself', { $ref: '#' }],
    [
      'an anchor',
      {
        $id: 'https://example.com/s',
        $defs: { t: { $anchor: 'top', anyOf: [{ $ref: '#top' }] } },
      },
    ],
    [
      'two definitions',
      {
        $defs: { a: { $ref: '#/$defs/b' }, b: { not: { $ref: '#/$defs/a' } } },
        properties: { x: { $ref: '#/$defs/a' } },
      },
    ],
    [
      'an escaped pointer',
      { $defs: { 'a/b': { if: { $ref: '#/$defs/a~1b' } } } },
    ],
  ])(
    'refuses a schema whose references loop through %s without reaching into the record',
    (_what, schema) => {
      expect(failure(() => checkCollection('c', { schema })).debug).toMatch(
        /^schema: #.* loops without reaching into the record/,
      );
    },
  );

  it('takes recursion that reaches into the record (trees, linked lists)', () => {
    const tree = {
      $defs: {
        node: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
      properties: { root: { $ref: '#/$defs/node' }, next: { $ref: '#' } },
    };
    const compiled = checkCollection('c', { schema: tree });
    expect(() =>
      compiled.validate({ root: { children: [{ label: 'a' }] }, next: {} }),
    ).not.toThrow();
  });

  it('answers a write under a looping schema stored before the check with a 400, not a stack overflow', () => {
    const stored = compileCollection('c', { schema: { $ref: '#' } });
    expect(failure(() => stored.validate({ a: 1 }))).toMatchObject({
      code: MarketplaceErrorCode.BadRequest,
      debug: expect.stringMatching(/^schema:/),
    });
  });
});

describe('compiled collection', () => {
  it('keeps the first unique field as the unique name, the others with null where a record has none', () => {
    const people = compileCollection('people', {
      unique: [
        { field: 'email', fold: ['trim'] },
        { field: 'phone' },
        { field: 'card.number', fold: ['case'] },
      ],
    });
    expect(
      people.uniqueKeys({ email: ' a@x ', card: { number: 'AB1' } }),
    ).toEqual({
      uniqueName: 'a@x',
      uniqueField: 'email',
      uniqueValues: [
        { field: 'phone', value: null },
        { field: 'card.number', value: 'ab1' },
      ],
    });
  });

  const rules = compileCollection('contacts', {
    schema: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      },
    },
    unique: [{ field: 'name', fold: ['case', 'trim'] }],
  });

  it('coerces scalars to the declared type in place', () => {
    const doc: Record<string, unknown> = { name: 42 };
    rules.validate(doc);
    expect(doc['name']).toBe('42');
  });

  it('names every failing field; a missing one is IncompleteRequestBody', () => {
    const error = failure(() => rules.validate({ tags: ['c', 'a', 'd'] }));
    expect(error.code).toBe(MarketplaceErrorCode.IncompleteRequestBody);
    expect(error.debug).toBe(
      'name is required; tags[0] must be a or b; tags[2] must be a or b',
    );
  });

  it('folds the unique key and serves string fields from text indexes', () => {
    expect(rules.uniqueKey({ name: '  Ana ' })).toBe('ana');
    expect(rules.uniqueKey({})).toBeNull();
    expect(rules.uniqueKeys({ name: 'Ana' })).toEqual({
      uniqueName: 'ana',
      uniqueField: 'name',
    });
    expect([...rules.textFields]).toContain('name');
    expect([...rules.textFields]).not.toContain('tags');
  });
});
