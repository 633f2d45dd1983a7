/**
 * CORS of the Kinvey paths, for browser apps (the HTML5 SDK): any origin,
 * the SDK's headers allowed, the request id and start exposed.
 */
export const KINVEY_CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'X-Kinvey-Request-Id, X-Kinvey-Request-Start, X-Kinvey-API-Version, Location, ETag, Content-Range, Range, Content-Length',
};

const KINVEY_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...KINVEY_CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'Authorization, Content-Type, Accept, Content-Range, Range, X-Requested-With, ' +
    'X-Kinvey-API-Version, X-Kinvey-Api-Version, X-Kinvey-Content-Type, ' +
    'X-Kinvey-Device-Information, X-Kinvey-Device-Info, X-Kinvey-Client-App-Version, ' +
    'X-Kinvey-Custom-Request-Properties, X-Kinvey-Skip-Business-Logic, ' +
    'X-Kinvey-Include-Headers-In-Response, X-Kinvey-ResponseWrapper',
  'Access-Control-Max-Age': '3600',
};

/** `X-Kinvey-*` request headers are allowed whatever their exact name. */
export function preflightHeaders(
  requested: string | undefined,
): Record<string, string> {
  const headers = { ...KINVEY_PREFLIGHT_HEADERS };
  const extra = (requested ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^x-kinvey-[a-z0-9-]+$/i.test(name));
  if (extra.length > 0)
    headers['Access-Control-Allow-Headers'] += `, ${extra.join(', ')}`;
  return headers;
}
