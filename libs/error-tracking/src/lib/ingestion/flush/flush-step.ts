/** One named step of the flush: a CTE `name AS (sql)` of its one statement. */
export interface FlushStep {
  readonly name: string;
  readonly sql: string;
}
