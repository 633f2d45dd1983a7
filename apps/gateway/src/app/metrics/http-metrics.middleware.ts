import type { NextFunction, Request, Response } from 'express';

import { onResponseDone } from '../http/response-done';
import type { HttpMetrics } from './metrics';

/**
 * Counts and times every request by its route pattern (`/events/:id`, not
 * the concrete path, to keep label cardinality bounded).
 */
export function httpMetricsMiddleware(metrics: HttpMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    onResponseDone(res, () => {
      // A response cut short by its client is not counted.
      if (!res.writableFinished) return;
      const routePath = (req.route as { path?: string } | undefined)?.path;
      const route = routePath ? `${req.baseUrl}${routePath}` : 'unmatched';
      const labels = {
        method: req.method,
        route,
        status: String(res.statusCode),
      };
      metrics.requests.inc(labels);
      metrics.duration.observe(
        labels,
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
    next();
  };
}
