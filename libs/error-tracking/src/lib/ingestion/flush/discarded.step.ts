import { P } from './flush-params';
import type { FlushStep } from './flush-step';

/** Client reports of the admitted requests: events the SDK dropped, per day. */
export const DISCARDED: readonly FlushStep[] = [
  {
    name: 'discarded',
    sql: `  INSERT INTO error_tracking.discarded_events AS d
         (project_id, day, source, reason, category, quantity)
  SELECT ok.project_id, x.day, x.source, x.reason, x.category, sum(x.quantity)
    FROM unnest(
        ${P.discardRequests}::int[], ${P.discardDays}::date[],
        ${P.discardSources}::text[], ${P.discardReasons}::text[],
        ${P.discardCategories}::text[], ${P.discardQuantities}::bigint[]
      )
         AS x(req, day, source, reason, category, quantity)
    JOIN ok ON ok.req = x.req
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (project_id, day, source, reason, category)
    DO UPDATE SET quantity = d.quantity + excluded.quantity`,
  },
];
