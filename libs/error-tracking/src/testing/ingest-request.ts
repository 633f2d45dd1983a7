import type { JsonObject } from '../lib/sentry-event/event-json';
import type { IngestRequest } from '../lib/ingestion/ingest-request';
import { prepareEvent } from '../lib/ingestion/prepare-request';

/**
 * What the collector hands the queue for `raws` sent with the project's key
 * at `receivedAt`: the events prepared, nothing else in the request.
 */
export function ingestRequest(
  project: { readonly projectId: number; readonly keyId: number },
  raws: readonly JsonObject[],
  receivedAt: Date,
): IngestRequest {
  const context = { receivedAt, maxEventBytes: 1 << 20 };
  return {
    keyId: project.keyId,
    projectId: project.projectId,
    receivedAt,
    events: raws.map((raw) => prepareEvent(raw, context)),
    sessions: [],
    buckets: [],
    discards: [],
  };
}
