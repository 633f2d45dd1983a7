import { assertSafeJson } from '@quitanda/http';
import { MarketplaceError } from '../common/marketplace.errors';

/** `query`/`sort` query-string parameters: absent or empty means none. */
export function parseJsonParam(
  raw: string | undefined,
  name: 'query' | 'sort',
): unknown {
  if (raw === undefined || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw MarketplaceError.invalidQuery(
      `The ${name} parameter is not valid JSON: ${reason}`,
    );
  }
  try {
    assertSafeJson(value, name);
  } catch (error) {
    throw MarketplaceError.invalidQuery(
      `The ${name} parameter: ${(error as Error).message}`,
    );
  }
  return value;
}
