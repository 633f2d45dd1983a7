import type { Response } from 'express';

import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../error-tracking.constants';
import { ErrorTrackingError } from '../error-tracking.errors';

export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
  readonly offset: number;
}

function positive(value: unknown, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : NaN;
}

/** `page` (from 1) and `per_page` (1..100, default 20), as GitLab reads them. */
export function pageRequest(
  query: Readonly<Record<string, unknown>>,
): PageRequest {
  const page = positive(query['page'], 1);
  const perPage = positive(query['per_page'], DEFAULT_PER_PAGE);
  if (Number.isNaN(page))
    throw ErrorTrackingError.invalidParameter('page is invalid');
  if (Number.isNaN(perPage))
    throw ErrorTrackingError.invalidParameter('per_page is invalid');
  const bounded = Math.min(perPage, MAX_PER_PAGE);
  return { page, perPage: bounded, offset: (page - 1) * bounded };
}

/**
 * GitLab's offset-pagination headers: `X-Page`, `X-Per-Page`, `X-Total`,
 * `X-Total-Pages`, `X-Next-Page`, `X-Prev-Page` and `Link`.
 */
export function setPageHeaders(
  res: Response,
  path: string,
  query: Readonly<Record<string, unknown>>,
  page: PageRequest,
  total: number,
): void {
  const totalPages = Math.max(1, Math.ceil(total / page.perPage));
  const next = page.page < totalPages ? page.page + 1 : undefined;
  const prev = page.page > 1 ? page.page - 1 : undefined;
  res.setHeader('X-Page', String(page.page));
  res.setHeader('X-Per-Page', String(page.perPage));
  res.setHeader('X-Total', String(total));
  res.setHeader('X-Total-Pages', String(totalPages));
  res.setHeader('X-Next-Page', next ? String(next) : '');
  res.setHeader('X-Prev-Page', prev ? String(prev) : '');
  const link = (target: number, rel: string) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query))
      if (typeof value === 'string' && key !== 'page' && key !== 'per_page')
        params.set(key, value);
    params.set('page', String(target));
    params.set('per_page', String(page.perPage));
    return `<${path}?${params.toString()}>; rel="${rel}"`;
  };
  const links = [
    ...(prev ? [link(prev, 'prev')] : []),
    ...(next ? [link(next, 'next')] : []),
    link(1, 'first'),
    link(totalPages, 'last'),
  ];
  res.setHeader('Link', links.join(', '));
}
