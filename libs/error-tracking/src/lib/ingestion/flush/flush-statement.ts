import { reopenOnRegressionStep } from '../../issues/issue-follows-error';
import { ADMISSION } from './admission.step';
import { ALERTS, FREQUENT_RULES } from './alerts.step';
import { DISCARDED } from './discarded.step';
import { ERROR_AGGREGATES } from './error-aggregates.step';
import { ERROR_TAGS, TAG_SETS } from './error-tags.step';
import { ERROR_UPSERT } from './error-upsert.step';
import { EVENT_ROWS } from './event-rows.step';
import { FLUSH_PARAMS, P } from './flush-params';
import type { FlushInput } from './flush-params';
import type { FlushStep } from './flush-step';
import { NEW_EVENTS } from './new-events.step';
import { RELEASE_HEALTH } from './release-health.step';

/**
 * The steps in statement order: a step reads only the steps before it.
 * Writes are ordered by key (project, fingerprint, ...) so concurrent
 * flushes of several replicas lock rows in the same order.
 */
const STEPS: readonly FlushStep[] = [
  ...ADMISSION,
  ...NEW_EVENTS,
  ...ERROR_AGGREGATES,
  FREQUENT_RULES,
  ERROR_UPSERT,
  TAG_SETS,
  ...EVENT_ROWS,
  ERROR_TAGS,
  reopenOnRegressionStep(P.now),
  ...ALERTS,
  ...RELEASE_HEALTH,
  ...DISCARDED,
];

/** What the flush reports: rejected requests, windows, and counts. */
const RESULT = `SELECT
  (SELECT coalesce(json_agg(json_build_array(req, verdict)), '[]'::json)
     FROM verdicts WHERE verdict <> 'ok') AS rejected,
  (SELECT coalesce(json_agg(json_build_array(key_id, category, quantity)), '[]'::json)
     FROM windows) AS windows,
  (SELECT count(*) FROM fresh)::int AS stored,
  (SELECT count(*) FROM reopened)::int AS reopened,
  (SELECT count(*) FROM alerts)::int AS alerts`;

/** The flush's one statement, assembled once when the module loads. */
export const FLUSH_SQL = `
WITH ${STEPS.map((step) => `${step.name} AS (\n${step.sql}\n)`).join(',\n')}
${RESULT}`;

/** The statement's parameters for one batch, in `$n` order. */
export function flushValues(input: FlushInput): unknown[] {
  return FLUSH_PARAMS.values(input);
}
