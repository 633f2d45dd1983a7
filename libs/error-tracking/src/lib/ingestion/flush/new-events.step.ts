import { P } from './flush-params';
import type { FlushStep } from './flush-step';

/**
 * The admitted requests' events, each stored once: a repeated event id
 * (within the batch, or already stored for the project) is a duplicate.
 * `fresh` holds the events this flush stores, `ord` their position in the
 * batch (the payload array's index), `fingerprint` the error each joins:
 * its hash, unless no error has that hash yet and one has an earlier
 * grouping version's (an error of an old algorithm keeps collecting; the
 * previous version's first). A hash merged into another error
 * (`error_merges`) gives the kept error's fingerprint, before any error
 * that still has that hash: one a flush re-created while the merge
 * committed collects nothing more.
 */
export const NEW_EVENTS: readonly FlushStep[] = [
  {
    name: 'ev',
    sql: `  SELECT * FROM unnest(
      ${P.eventRequests}::int[], ${P.eventProjectIds}::int[], ${P.eventIds}::uuid[],
      ${P.eventTimestamps}::timestamptz[], ${P.eventReceivedAts}::timestamptz[],
      ${P.eventFingerprints}::uuid[], ${P.eventPreviousFingerprints}::uuid[],
      ${P.eventOlderFingerprints}::uuid[], ${P.eventUserKeys}::uuid[],
      ${P.eventGroupingVersions}::smallint[], ${P.eventLevels}::text[],
      ${P.eventLoggers}::text[], ${P.eventReleases}::text[],
      ${P.eventEnvironments}::text[], ${P.eventPlatforms}::text[],
      ${P.eventTitles}::text[], ${P.eventTypes}::text[], ${P.eventMessages}::text[],
      ${P.eventCulprits}::text[]
    )
         WITH ORDINALITY
         AS e(req, project_id, event_id, ts, received_at, new_fingerprint,
              previous_fingerprint, older_fingerprint, user_key,
              grouping_version, level, logger, release, environment, platform,
              title, type, message, culprit, ord)`,
  },
  {
    name: 'candidates',
    sql: `  SELECT DISTINCT ON (e.project_id, e.event_id) e.*,
         coalesce((
           SELECT k.fingerprint FROM error_tracking.error_merges m
             JOIN error_tracking.errors k ON k.id = m.error_id
            WHERE m.project_id = e.project_id AND m.fingerprint = e.new_fingerprint
         ), (
           SELECT t.fingerprint FROM (
             SELECT o.fingerprint AS via, false AS merged, o.fingerprint
               FROM error_tracking.errors o
              WHERE o.project_id = e.project_id
                AND o.fingerprint IN (e.previous_fingerprint, e.older_fingerprint)
             UNION ALL
             SELECT m.fingerprint, true, k.fingerprint FROM error_tracking.error_merges m
               JOIN error_tracking.errors k ON k.id = m.error_id
              WHERE m.project_id = e.project_id
                AND m.fingerprint IN (e.previous_fingerprint, e.older_fingerprint)
           ) t
            WHERE NOT EXISTS (
                SELECT 1 FROM error_tracking.errors n
                 WHERE n.project_id = e.project_id AND n.fingerprint = e.new_fingerprint)
            ORDER BY t.via = e.previous_fingerprint DESC, t.merged DESC
            LIMIT 1
         ), e.new_fingerprint) AS fingerprint
    FROM ev e WHERE e.req IN (SELECT req FROM ok)
   ORDER BY e.project_id, e.event_id, e.ord`,
  },
  {
    name: 'ids',
    sql: `  INSERT INTO error_tracking.event_ids (project_id, event_id, timestamp, received_at)
  SELECT project_id, event_id, ts, received_at FROM candidates
   ORDER BY project_id, event_id
  ON CONFLICT DO NOTHING
  RETURNING project_id, event_id`,
  },
  {
    name: 'fresh',
    sql: `  SELECT c.* FROM candidates c JOIN ids USING (project_id, event_id)`,
  },
];
