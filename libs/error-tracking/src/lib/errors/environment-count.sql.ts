import { bind } from './search-sql';

/**
 * The SQL of an error's (`e`) event count: all its kept events, or with an
 * environment those of that environment, read from its per-error tag
 * counts (`environment` is a tag every event carries) by primary key, so a
 * list narrowed to an environment counts it without reading events.
 */
export function eventCountSql(
  params: unknown[],
  environment: string | undefined,
): string {
  if (environment === undefined) return 'e.count';
  return `coalesce((SELECT t.count FROM error_tracking.error_tags t
                     WHERE t.error_id = e.id AND t.key = 'environment'
                       AND t.value = ${bind(params, environment)}), 0)`;
}
