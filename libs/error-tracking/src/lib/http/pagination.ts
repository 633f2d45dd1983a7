import { pageOffset } from '@quitanda/kernel';
import type { Request, Response } from 'express';

import {
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
} from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';

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
  return { page, perPage: bounded, offset: pageOffset(page, bounded) };
}

/** Never echoed into a link: a credential would end up in clients' logs. */
const NOT_CARRIED = new Set(['private_token']);

/**
 * An absolute URL of this request's path with its query string, `replace`d
 * parameters overriding (or, as undefined, dropping) the request's own.
 * GitLab's links are absolute, and clients (python-gitlab) follow them as
 * given: a relative one would be resolved against their `/api/v4` prefix.
 */
export function linkTo(
  req: Request,
  baseUrl: string,
  replace: Readonly<Record<string, string | undefined>>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(req.query))
    if (typeof value === 'string' && !NOT_CARRIED.has(key) && !(key in replace))
      params.set(key, value);
  for (const [key, value] of Object.entries(replace))
    if (value !== undefined) params.set(key, value);
  return `${baseUrl}${req.path}?${params.toString()}`;
}

/**
 * GitLab's offset-pagination headers: `X-Page`, `X-Per-Page`, `X-Total`,
 * `X-Total-Pages`, `X-Next-Page`, `X-Prev-Page` (empty on the last or first
 * page) and `Link` with absolute URLs.
 */
export function setPageHeaders(
  res: Response,
  req: Request,
  baseUrl: string,
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
  const link = (target: number, rel: string) =>
    `<${linkTo(req, baseUrl, {
      page: String(target),
      per_page: String(page.perPage),
    })}>; rel="${rel}"`;
  const links = [
    ...(prev ? [link(prev, 'prev')] : []),
    ...(next ? [link(next, 'next')] : []),
    link(1, 'first'),
    link(totalPages, 'last'),
  ];
  res.setHeader('Link', links.join(', '));
}

/**
 * GitLab's offset-paginated list: reads `page`/`per_page` (400 if invalid),
 * fetches that page, sets the headers for its `total`, and returns the
 * fetched `key` (the services name their lists: `users`, `members`, ...).
 */
export async function offsetPage<K extends string, T>(
  req: Request,
  res: Response,
  baseUrl: string,
  key: K,
  fetch: (
    limit: number,
    offset: number,
  ) => Promise<Readonly<Record<K, readonly T[]>> & { readonly total: number }>,
): Promise<readonly T[]> {
  const page = pageRequest(req.query as Record<string, unknown>);
  const found = await fetch(page.perPage, page.offset);
  setPageHeaders(res, req, baseUrl, page, found.total);
  return found[key];
}

/**
 * Keyset pagination's only header, as GitLab sends it: `Link` with
 * `rel="next"` carrying the boundary parameters, absent on the last page.
 */
export function setNextLink(
  res: Response,
  req: Request,
  baseUrl: string,
  next: Readonly<Record<string, string | undefined>> | undefined,
): void {
  if (next)
    res.setHeader('Link', `<${linkTo(req, baseUrl, next)}>; rel="next"`);
}

/** A keyset page's `Link`, by the opaque `cursor` of the next page if any. */
export function setNextCursorLink(
  res: Response,
  req: Request,
  baseUrl: string,
  nextCursor: string | undefined | null,
): void {
  setNextLink(
    res,
    req,
    baseUrl,
    nextCursor ? { cursor: nextCursor } : undefined,
  );
}
