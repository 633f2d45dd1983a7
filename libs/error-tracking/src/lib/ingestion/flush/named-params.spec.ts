import { namedParams } from './named-params';

describe('namedParams', () => {
  const params = namedParams({
    first: (input: { a: number; b: string }) => input.a,
    second: (input: { a: number; b: string }) => input.b,
  });

  it('numbers placeholders in declaration order', () => {
    expect(params.refs).toEqual({ first: '$1', second: '$2' });
  });

  it('reads one execution’s values in the same order', () => {
    expect(params.values({ a: 7, b: 'x' })).toEqual([7, 'x']);
  });
});
