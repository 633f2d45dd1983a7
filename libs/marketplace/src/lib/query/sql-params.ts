import { MarketplaceError } from '../common/marketplace.errors';

const LONE_SURROGATE =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** PostgreSQL's text and jsonb refuse NUL and unpaired surrogates. */
function assertStorable(value: unknown, depth = 0): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000') || LONE_SURROGATE.test(value)) {
      throw MarketplaceError.invalidQuery(
        'Text may not contain NUL or unpaired surrogates',
      );
    }
  } else if (typeof value === 'object' && value !== null) {
    if (depth > 100)
      throw MarketplaceError.invalidQuery('A value is nested too deeply');
    for (const [key, item] of Object.entries(value)) {
      assertStorable(key, depth + 1);
      assertStorable(item, depth + 1);
    }
  }
}

/** Collects bind parameters in order; every value reaches SQL as `$n`. */
export class SqlParams {
  readonly values: unknown[] = [];

  /** `offset`: how many parameters the caller's own SQL already uses. */
  constructor(private readonly offset = 0) {}

  add(value: unknown): string {
    assertStorable(value);
    return this.push(value);
  }

  /** A JSON value as a `jsonb` parameter (bound as its JSON text). */
  json(value: unknown): string {
    assertStorable(value);
    return `${this.push(JSON.stringify(value))}::jsonb`;
  }

  text(value: string): string {
    return `${this.add(value)}::text`;
  }

  private push(value: unknown): string {
    this.values.push(value);
    return `$${this.offset + this.values.length}`;
  }
}
