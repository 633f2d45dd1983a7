import type { Request } from 'express';

/** Paths of APIs: their clients get JSON errors whatever they accept. */
function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * Whether a request is a person's browser opening a page: it prefers HTML
 * over JSON (browsers list `text/html` first; API clients send JSON or
 * `*\/*`, where JSON wins) and its path is not an API's.
 */
export function isPageNavigation(req: Request): boolean {
  return (
    !isApiPath(req.path) &&
    req.accepts(['application/json', 'text/html']) === 'text/html'
  );
}
