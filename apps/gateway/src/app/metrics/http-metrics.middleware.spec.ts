import { EventEmitter } from 'node:events';

import type { NextFunction, Request, Response } from 'express';

import { httpMetricsMiddleware } from './http-metrics.middleware';
import { createHttpMetrics } from './metrics';

function exchange(route: string | undefined, finished: boolean) {
  const req = {
    method: 'GET',
    baseUrl: '',
    route: route ? { path: route } : undefined,
  };
  const res = Object.assign(new EventEmitter(), {
    statusCode: 200,
    writableFinished: finished,
  });
  return { req, res };
}

describe('httpMetricsMiddleware', () => {
  it('counts and times answered requests by route pattern, not those whose client left', async () => {
    const metrics = createHttpMetrics();
    const middleware = httpMetricsMiddleware(metrics);
    const run = (route: string | undefined, finished: boolean) => {
      const { req, res } = exchange(route, finished);
      let passed = false;
      middleware(
        req as unknown as Request,
        res as unknown as Response,
        (() => {
          passed = true;
        }) as NextFunction,
      );
      expect(passed).toBe(true);
      res.emit('finish');
      res.emit('close');
    };
    run('/events/:id', true);
    run('/events/:id', true);
    run('/events/:id', false);
    run(undefined, true);

    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'http_requests_total{method="GET",route="/events/:id",status="200"} 2',
    );
    expect(text).toContain(
      'http_requests_total{method="GET",route="unmatched",status="200"} 1',
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/events\/:id",status="200"\} 2/,
    );
  });
});
