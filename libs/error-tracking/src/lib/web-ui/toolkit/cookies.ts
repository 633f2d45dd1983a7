/** The session cookie (GitLab calls its own `_gitlab_session`). */
export const SESSION_COOKIE = '_quitanda_session';
/** A random value tying the sign-in form's CSRF token to this browser. */
export const ANONYMOUS_COOKIE = '_quitanda_csrf';

/** Cookie header -> name/value map (first occurrence wins). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"'))
      value = value.slice(1, -1);
    if (!cookies.has(name)) {
      try {
        cookies.set(name, decodeURIComponent(value));
      } catch {
        cookies.set(name, value);
      }
    }
  }
  return cookies;
}

export interface CookieOptions {
  readonly secure: boolean;
  /** Seconds; 0 deletes the cookie; undefined makes a browser-session cookie. */
  readonly maxAgeSeconds?: number;
}

/** A `Set-Cookie` value: HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS. */
export function serializeCookie(
  name: string,
  value: string,
  options: CookieOptions,
): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (options.maxAgeSeconds !== undefined)
    parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

function hasControlOrBackslash(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/** A path with one leading `/`, not `//host` or `/\host` (both leave the site). */
function isSameSitePath(path: string): boolean {
  return path.startsWith('/') && path[1] !== '/' && path[1] !== '\\';
}

/**
 * Where to go after signing in: only a same-site relative path (`/x`, not
 * `//host` or `/\host`, no scheme, no control characters); else `/`. The
 * check runs again on the normalised path, the one the Location header
 * carries: `/..//host` resolves to `//host`.
 */
export function safeRedirectPath(candidate: unknown): string {
  if (
    typeof candidate !== 'string' ||
    candidate.length > 2048 ||
    !isSameSitePath(candidate) ||
    hasControlOrBackslash(candidate)
  )
    return '/';
  const url = new URL(candidate, 'http://quitanda.invalid');
  if (url.origin !== 'http://quitanda.invalid') return '/';
  if (!isSameSitePath(url.pathname)) return '/';
  if (url.pathname.startsWith('/users/sign_')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
