import { decimal, matchOffers } from './match';

describe('matching offers to needs', () => {
  it('reads prices written with a comma or a dot', () => {
    expect(decimal('3,50')).toBe(3.5);
    expect(decimal('3.50')).toBe(3.5);
    expect(decimal(' 2 ')).toBe(2);
    expect(decimal('abc')).toBeNull();
  });

  it('lists each needed item in order with offers of the same product, cheapest first, then larger quantity', () => {
    const row = (
      producer: string,
      item: Record<string, unknown>,
      collection = 'availableAssortment',
    ) => ({
      id_producer: producer,
      collection,
      record_id: `r-${producer}`,
      item,
    });
    const result = matchOffers(
      [
        { name: 'Tomate', measurement: 'kg', quantity: '5' },
        { name: 'Alface', measurement: 'un', quantity: '1' },
      ],
      [
        row(
          'a',
          { name: ' tomate ', measurement: 'kg', quantity: '4', price: '3,00' },
          'assortment',
        ),
        row('b', {
          name: 'TOMATE',
          measurement: 'kg',
          quantity: '10',
          price: '2.50',
        }),
        row('c', {
          name: 'Tomate',
          measurement: 'kg',
          quantity: '6',
          price: '2,5',
        }),
        row('d', {
          name: 'Tomate',
          measurement: 'un',
          quantity: '9',
          price: '1',
        }),
      ],
    );
    expect(result.map((m) => m.item.name)).toEqual(['Tomate', 'Alface']);
    expect(
      result[0]?.offers.map((o) => [o.id_producer, o.price_value, o.covers]),
    ).toEqual([
      ['b', 2.5, true],
      ['c', 2.5, true],
      ['a', 3, false],
    ]);
    expect(result[0]?.offers[2]).toMatchObject({
      collection: 'assortment',
      record_id: 'r-a',
      price: '3,00',
    });
    expect(result[1]?.offers).toEqual([]);
  });
});
