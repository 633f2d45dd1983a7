import { RESULT_SET_CAP } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { KinveyDoc } from './kinvey-doc';

/** The URL parameters of a find; anything else (`_`, `kinveyfile_tls`...) is ignored. */
export interface FindParams {
  readonly query?: unknown;
  readonly sort?: unknown;
  readonly fields?: unknown;
  readonly limit?: unknown;
  readonly skip?: unknown;
}

function text(value: unknown): string | undefined {
  if (Array.isArray(value)) return text(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}

/** `limit`/`skip`: non-negative integers, else 400 BadRequest. */
export function countParam(
  value: unknown,
  name: 'limit' | 'skip',
): number | undefined {
  const raw = text(value);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,9}$/.test(raw.trim()))
    throw MarketplaceError.badRequest(
      `${name} must be a non-negative integer.`,
      `${name}=${raw}`,
    );
  return Number(raw.trim());
}

export function fieldsParam(value: unknown): string[] | undefined {
  const raw = text(value);
  if (!raw) return undefined;
  const fields = raw
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  return fields.length > 0 ? fields : undefined;
}

export function rawParam(value: unknown): string | undefined {
  return text(value);
}

/** Each record keeps only `fields` (top-level names) plus `_id` and `_acl`. */
export function project(
  doc: KinveyDoc,
  fields: readonly string[] | undefined,
): KinveyDoc {
  if (!fields) return doc;
  const out: KinveyDoc = { _id: doc['_id'] };
  if (doc['_acl'] !== undefined) out['_acl'] = doc['_acl'];
  for (const field of fields) {
    const top = field.split('.')[0] as string;
    if (doc[top] !== undefined) out[top] = doc[top];
  }
  return out;
}

/** Fails with ResultSetSizeExceeded when an unlimited query found too much. */
export function checkCap(count: number, limited: boolean): void {
  if (!limited && count > RESULT_SET_CAP)
    throw MarketplaceError.resultSetTooLarge(RESULT_SET_CAP);
}
