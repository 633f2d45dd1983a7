/** The forms of Kinvey's `Authorization` header. */
export type Credentials =
  | { readonly scheme: 'basic'; readonly name: string; readonly secret: string }
  | { readonly scheme: 'kinvey'; readonly token: string }
  | { readonly scheme: 'bare'; readonly secret: string };

/**
 * Parses `Basic base64(name:secret)`, `Kinvey <token>` or a bare secret
 * (the original app sends the app secret as the whole header). Scheme names
 * are matched case-insensitively.
 */
export function parseAuthorization(
  header: string | undefined,
): Credentials | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  const match = /^(\S+)\s+(\S+)$/.exec(value);
  const scheme = match?.[1]?.toLowerCase();
  const rest = match?.[2] ?? '';
  if (scheme === 'kinvey') return { scheme: 'kinvey', token: rest };
  if (scheme === 'basic') {
    const decoded = Buffer.from(rest, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // A NUL can be no one's name or secret (and PostgreSQL refuses it).
    if (colon <= 0 || decoded.includes('\u0000')) return undefined;
    return {
      scheme: 'basic',
      name: decoded.slice(0, colon),
      secret: decoded.slice(colon + 1),
    };
  }
  if (match) return undefined;
  return { scheme: 'bare', secret: value };
}
