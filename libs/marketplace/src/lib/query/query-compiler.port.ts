/**
 * The MongoDB-query -> SQL compiler (`../query`), as the data layer uses it.
 * Bound in the module; specs can bind a fake.
 */
export const QUERY_COMPILER = 'marketplace:query-compiler';

/** Bind parameters of one statement: `add` returns the `$n` placeholder. */
export interface ParamList {
  add(value: unknown): string;
  readonly values: unknown[];
}

export interface CompiledFilterSql {
  readonly sql: string;
  readonly usesRegex: boolean;
}

/** `_group` compiled: one SELECT over a caller-given FROM and scope. */
export interface CompiledGroupSql {
  readonly condition: CompiledFilterSql;
  select(from: string, where: string): string;
  reply(rows: readonly Record<string, unknown>[]): Record<string, unknown>[];
}

export interface QueryCompiler {
  params(): ParamList;
  /** Parses the `query`/`sort` URL parameter (400 InvalidQuerySyntax). */
  parseJsonParam(raw: string | undefined, name: 'query' | 'sort'): unknown;
  /**
   * A boolean SQL expression over the jsonb column `doc`; conditions on
   * `textFields` (always strings when present) become index-served text.
   */
  compileFilter(
    filter: unknown,
    doc: string,
    params: ParamList,
    textFields?: ReadonlySet<string>,
  ): CompiledFilterSql;
  /** ORDER BY items, or ''. */
  compileSort(
    sort: unknown,
    doc: string,
    params: ParamList,
    textFields?: ReadonlySet<string>,
  ): string;
  /** The SDKs' aggregations (400 FeatureUnavailable for other reduces). */
  compileGroup(body: unknown, doc: string, params: ParamList): CompiledGroupSql;
}
