/** URL prefix of the UI's CSS and JS. */
export const ASSETS_PREFIX = '/assets/';
export const SIGN_IN_PATH = '/users/sign_in';
export const SIGN_OUT_PATH = '/users/sign_out';
/** GitLab's page for a password to replace before anything else, and its form's target. */
export const NEW_PASSWORD_PATH = '/-/profile/password/new';
export const PASSWORD_PATH = '/-/profile/password';

/**
 * Where the pages are, as route patterns: `isWebPath`'s paths less the
 * assets. Their session, CSRF and form middleware is applied to these.
 */
export const WEB_PAGE_PATHS: readonly string[] = [
  '/',
  SIGN_IN_PATH,
  SIGN_OUT_PATH,
  NEW_PASSWORD_PATH,
  PASSWORD_PATH,
  'projects{/*rest}',
];

/** Whether a request path is one of the web UI's (HTML errors, not JSON). */
export function isWebPath(path: string): boolean {
  return (
    path === '/' ||
    path === SIGN_IN_PATH ||
    path === SIGN_OUT_PATH ||
    path === NEW_PASSWORD_PATH ||
    path === PASSWORD_PATH ||
    path === '/projects' ||
    path.startsWith('/projects/') ||
    path.startsWith(ASSETS_PREFIX)
  );
}

/**
 * Headers of every UI response: no inline script or style, no framing, no
 * referrer to other sites, private pages never cached.
 */
export const WEB_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};
