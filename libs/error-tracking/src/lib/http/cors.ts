/**
 * CORS of the collector, so browser SDKs can report from any origin: every
 * response carries these; preflights add the allowed methods and headers.
 */
export const COLLECTOR_CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'x-sentry-error, x-sentry-rate-limits, retry-after',
};

export const COLLECTOR_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...COLLECTOR_CORS_HEADERS,
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers':
    'x-sentry-auth, x-requested-with, x-forwarded-for, origin, referer, accept, ' +
    'content-type, authentication, authorization, content-encoding, ' +
    'transfer-encoding, sentry-trace, baggage',
  'Access-Control-Max-Age': '3600',
};
