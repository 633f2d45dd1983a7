import type { IngestRequest } from '../lib/ingestion/ingest-request';
import type { FlushResult } from '../lib/ingestion/ingestion.repository';

/** What a flush that admitted every request of `batch` (and stored nothing new) returns. */
export function admittedAll(batch: readonly IngestRequest[]): FlushResult {
  return {
    verdicts: batch.map(() => 'ok'),
    stored: 0,
    duplicates: 0,
    windows: [],
    reopenedIssues: 0,
    alerts: 0,
  };
}
