import { containmentHint } from './index-hint';

function params() {
  const values: unknown[] = [];
  return {
    values,
    add(value: unknown) {
      values.push(value);
      return `$${values.length}`;
    },
  };
}

describe('containmentHint', () => {
  it('turns top-level scalar equalities into containment of the value or an array holding it', () => {
    const p = params();
    expect(
      containmentHint({ id_producer: 'u1', canceled: 'false' }, 't.doc', p),
    ).toBe(
      '(t.doc @> $1::jsonb OR t.doc @> $2::jsonb) AND (t.doc @> $3::jsonb OR t.doc @> $4::jsonb)',
    );
    expect(p.values).toEqual([
      '{"id_producer":"u1"}',
      '{"id_producer":["u1"]}',
      '{"canceled":"false"}',
      '{"canceled":["false"]}',
    ]);
  });

  it('leaves operators, dotted paths, nulls and objects to the compiled filter', () => {
    const p = params();
    expect(
      containmentHint(
        {
          $or: [{ a: 1 }],
          'available.name': 'x',
          n: { $gt: 1 },
          z: null,
          o: { a: 1 },
        },
        't.doc',
        p,
      ),
    ).toBeUndefined();
    expect(containmentHint(undefined, 't.doc', p)).toBeUndefined();
    expect(p.values).toEqual([]);
  });
});
