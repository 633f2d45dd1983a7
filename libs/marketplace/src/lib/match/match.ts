import { isPlainObject } from '../kinvey/kinvey-doc';

export interface NeededItem {
  readonly name: string;
  readonly measurement: string;
  readonly quantity: string;
}

export interface OfferRow {
  readonly id_producer: string;
  readonly collection: string;
  readonly record_id: string;
  readonly item: Record<string, unknown>;
}

export interface Offer {
  id_producer: string;
  collection: string;
  record_id: string;
  name: string;
  measurement: string;
  quantity: string;
  price: string;
  price_value: number | null;
  covers: boolean;
}

/** Product identity: name ignoring case and surrounding spaces. */
export function productKey(name: unknown, measurement: unknown): string {
  return `${String(name ?? '')
    .trim()
    .toLowerCase()}\u0000${String(measurement ?? '')}`;
}

/** A number written with a comma or a dot as decimal separator. */
export function decimal(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const normalised = value.trim().replace(',', '.');
  if (!/^\d+(?:\.\d+)?$/.test(normalised)) return null;
  return Number(normalised);
}

export function neededItem(value: unknown): NeededItem | undefined {
  if (!isPlainObject(value) || typeof value['name'] !== 'string')
    return undefined;
  return {
    name: value['name'],
    measurement: String(value['measurement'] ?? ''),
    quantity: String(value['quantity'] ?? ''),
  };
}

/**
 * For each needed item, in order, the offers of the same product: cheapest
 * first, then the larger quantity; `covers` when the offer has enough.
 */
export function matchOffers(
  needs: readonly NeededItem[],
  rows: readonly OfferRow[],
): Array<{ item: NeededItem; offers: Offer[] }> {
  const byProduct = new Map<string, Offer[]>();
  for (const row of rows) {
    const key = productKey(row.item['name'], row.item['measurement']);
    const offers = byProduct.get(key) ?? [];
    offers.push({
      id_producer: row.id_producer,
      collection: row.collection,
      record_id: row.record_id,
      name: String(row.item['name']),
      measurement: String(row.item['measurement'] ?? ''),
      quantity: String(row.item['quantity'] ?? ''),
      price: String(row.item['price'] ?? ''),
      price_value: decimal(row.item['price']),
      covers: false,
    });
    byProduct.set(key, offers);
  }
  return needs.map((item) => {
    const needed = decimal(item.quantity) ?? 0;
    const offers = (
      byProduct.get(productKey(item.name, item.measurement)) ?? []
    )
      .map((offer) => ({
        ...offer,
        covers: (decimal(offer.quantity) ?? 0) >= needed,
      }))
      .sort(
        (a, b) =>
          (a.price_value ?? Infinity) - (b.price_value ?? Infinity) ||
          (decimal(b.quantity) ?? 0) - (decimal(a.quantity) ?? 0),
      );
    return { item, offers };
  });
}
