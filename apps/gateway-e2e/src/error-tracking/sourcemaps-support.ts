import { SENTRY_CLI_FIXTURE_TOKEN, loadSentryCliFlow } from '@quitanda/testing';
import type {
  BrowserSourceMapFixture,
  SentryCliExchange,
} from '@quitanda/testing';

import { sendRaw } from './error-tracking-support';
import type {
  ErrorTrackingGateway,
  RawResponse,
} from './error-tracking-support';

/** Headers the fixtures README says not to replay (the transport's own). */
const TRANSPORT_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'te',
]);

/** The exact bytes of a captured request body. */
export function exchangeBody(exchange: SentryCliExchange): Buffer | undefined {
  const body = exchange.request.body;
  if (!body) return undefined;
  if (body.raw_base64 !== undefined && body.multipart)
    return Buffer.from(body.raw_base64, 'base64');
  return Buffer.from(body.text ?? '', 'utf8');
}

/**
 * Sends one captured sentry-cli request as recorded, but with `token` in
 * place of the capture's placeholder token (fixtures README, "How to replay").
 */
export function replayExchange(
  gw: ErrorTrackingGateway,
  exchange: SentryCliExchange,
  token: string,
): Promise<RawResponse> {
  const headers: Record<string, string> = {};
  for (const [name, value] of exchange.request.headers) {
    if (TRANSPORT_HEADERS.has(name.toLowerCase())) continue;
    headers[name] =
      name.toLowerCase() === 'authorization'
        ? value.replace(SENTRY_CLI_FIXTURE_TOKEN, token)
        : value;
  }
  const query = exchange.request.query ? `?${exchange.request.query}` : '';
  return sendRaw(gw.url, {
    method: exchange.request.method,
    path: `${exchange.request.path}${query}`,
    headers,
    body: exchangeBody(exchange),
  });
}

/** Replays a whole flow, returning each response beside its exchange. */
export async function replayFlow(
  gw: ErrorTrackingGateway,
  flow: string,
  token: string,
): Promise<Array<{ exchange: SentryCliExchange; response: RawResponse }>> {
  const results = [];
  for (const exchange of loadSentryCliFlow(flow).exchanges)
    results.push({
      exchange,
      response: await replayExchange(gw, exchange, token),
    });
  return results;
}

/** Forgets every upload and release (each flow starts from an empty server). */
export async function clearArtifacts(gw: ErrorTrackingGateway): Promise<void> {
  await gw.query(
    `TRUNCATE error_tracking.artifact_chunks, error_tracking.artifact_bundles,
              error_tracking.artifact_files, error_tracking.releases`,
  );
}

/** The browser fixture's original frames: [abs_path, line, column, function]. */
export function originalFrames(
  fixture: BrowserSourceMapFixture,
): Array<[string, number, number, string | null]> {
  return fixture.expect.resolved_frames.map((f) => [
    f.original.abs_path,
    f.original.lineno,
    f.original.colno,
    f.original.function,
  ]);
}
