import { MarketplaceError } from '../common/marketplace.errors';
import type { CollectionSettings } from './collection-settings';

/**
 * The produce marketplace app, as collection settings: what the contract's
 * "produce app's definition" requires, and nothing in code. Prices and
 * quantities are numeric text (a JSON number is stored as its text, either
 * decimal separator accepted), `canceled` the text "true" or "false".
 * Its collections turn delta sets on (Kinvey's default is off): the
 * produce app has always pulled them so.
 */
const MEASUREMENT = { type: 'string', enum: ['un', 'kg'] };
const NUMERIC_TEXT = { type: 'string', pattern: '^\\s*\\d+(?:[.,]\\d+)?\\s*$' };

const REQUIRED_ITEM = {
  type: 'object',
  required: ['name', 'measurement', 'quantity'],
  properties: {
    name: { type: 'string' },
    measurement: MEASUREMENT,
    quantity: NUMERIC_TEXT,
    image: { type: ['object', 'null'] },
  },
};

const AVAILABLE_ITEM = {
  ...REQUIRED_ITEM,
  required: [...REQUIRED_ITEM.required, 'price'],
  properties: { ...REQUIRED_ITEM.properties, price: NUMERIC_TEXT },
};

const itemList = (item: object) => ({ type: ['array', 'null'], items: item });

/** A producer's assortment of either layout: its own, not canceled or canceled. */
function assortment(lists: Record<string, object>): CollectionSettings {
  return {
    schema: {
      type: 'object',
      required: ['id_producer'],
      properties: {
        id_producer: { type: 'string' },
        canceled: { type: 'string', enum: ['true', 'false'] },
        ...lists,
      },
    },
    references: [{ field: 'id_producer', to: 'user', callerWhenUser: true }],
    deltaSet: true,
  };
}

export const PRODUCE_DEFINITION: Readonly<Record<string, CollectionSettings>> =
  {
    product: {
      schema: {
        type: 'object',
        required: ['name', 'measurement'],
        properties: {
          name: { type: 'string', pattern: '\\S' },
          measurement: MEASUREMENT,
        },
      },
      unique: [{ field: 'name', fold: ['case', 'trim'] }],
      deltaSet: true,
    },
    assortment: assortment({
      available: itemList(AVAILABLE_ITEM),
      required: itemList(REQUIRED_ITEM),
    }),
    availableAssortment: assortment({ products: itemList(AVAILABLE_ITEM) }),
    requiredAssortment: assortment({ products: itemList(REQUIRED_ITEM) }),
  };

/** Definitions shipped with the product, by the name operators apply them with. */
export const DEFINITIONS: Readonly<
  Record<string, Readonly<Record<string, CollectionSettings>>>
> = { produce: PRODUCE_DEFINITION };

/** The collections of a shipped definition; 400 naming the known ones otherwise. */
export function definitionOf(
  name: string,
): Readonly<Record<string, CollectionSettings>> {
  const found = DEFINITIONS[name];
  if (!found)
    throw MarketplaceError.badRequest(
      `Unknown definition; known: ${Object.keys(DEFINITIONS).join(', ')}.`,
      name,
    );
  return found;
}
