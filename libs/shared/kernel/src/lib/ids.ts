import { v7 as uuidv7, validate as uuidValidate } from 'uuid';

/** A new time-ordered UUID (version 7), so primary keys index in insert order. */
export function newId(): string {
  return uuidv7();
}

export function isUuid(value: string): boolean {
  return uuidValidate(value);
}
