import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { collectionOf, uniqueNameOf, validateRecord } from './collections';

function failure(run: () => unknown): { code: string; debug: string } {
  try {
    run();
  } catch (error) {
    return error as { code: string; debug: string };
  }
  throw new Error('expected a validation error');
}

describe('collections', () => {
  it('knows the four collections and nothing else', () => {
    expect(collectionOf('availableAssortment')).toBe('availableAssortment');
    expect(failure(() => collectionOf('fruit')).code).toBe(
      MarketplaceErrorCode.CollectionNotFound,
    );
  });

  it('keys product names by lower-cased trimmed name', () => {
    expect(uniqueNameOf('product', { name: '  Tomate ' })).toBe('tomate');
    expect(uniqueNameOf('assortment', { name: 'Tomate' })).toBeNull();
  });

  it('checks products: name required, measurement un or kg', () => {
    expect(
      validateRecord('product', { name: 'Uva', measurement: 'kg', extra: [1] }),
    ).toBeUndefined();
    expect(
      failure(() => validateRecord('product', { measurement: 'kg' })).code,
    ).toBe(MarketplaceErrorCode.IncompleteRequestBody);
    const bad = failure(() =>
      validateRecord('product', { name: 'Uva', measurement: 'box' }),
    );
    expect(bad.code).toBe(MarketplaceErrorCode.BadRequest);
    expect(bad.debug).toMatch(/measurement/);
  });

  it('normalises assortments: boolean canceled and numeric quantity/price become text; both separators kept', () => {
    const doc: Record<string, unknown> = {
      id_producer: 'u1',
      canceled: true,
      available: [
        { name: 'Tomate', measurement: 'kg', quantity: 3, price: '2,50' },
      ],
      required: [{ name: 'Alface', measurement: 'un', quantity: '1.5' }],
    };
    expect(validateRecord('assortment', doc)).toBe('u1');
    expect(doc['canceled']).toBe('true');
    expect(doc['available']).toEqual([
      { name: 'Tomate', measurement: 'kg', quantity: '3', price: '2,50' },
    ]);
    expect(
      validateRecord('requiredAssortment', {
        id_producer: 'u1',
        products: [{ name: 'x', measurement: 'un', quantity: '1' }],
      }),
    ).toBe('u1');
  });

  it('names every failing field in debug; a missing field is IncompleteRequestBody', () => {
    const error = failure(() =>
      validateRecord('availableAssortment', {
        canceled: 'maybe',
        products: [{ name: 'x', measurement: 'g', quantity: 'lots' }],
      }),
    );
    expect(error.code).toBe(MarketplaceErrorCode.IncompleteRequestBody);
    for (const field of [
      'id_producer',
      'canceled',
      'products[0].measurement',
      'products[0].quantity',
      'products[0].price',
    ])
      expect(error.debug).toContain(field);
  });
});
