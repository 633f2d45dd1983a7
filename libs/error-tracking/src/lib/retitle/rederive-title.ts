import { normalizeEvent } from '../ingestion/normalize-event';
import type { JsonObject } from '../sentry-event/event-json';
import { isLegacyCulprit } from './legacy-culprit';

export interface DerivedTitle {
  readonly title: string;
  readonly culprit: string;
}

/**
 * The title and culprit a stored event gets by today's rules: its payload
 * normalised again (legacy keys, moved stack traces) with a culprit the
 * collector derived by earlier rules dropped, so only an SDK's own culprit
 * still wins.
 */
export function rederiveTitle(
  payload: JsonObject,
  receivedAt: Date,
): DerivedTitle {
  const raw: JsonObject = { ...payload };
  if (isLegacyCulprit(payload, raw['culprit'])) delete raw['culprit'];
  const event = normalizeEvent(raw, { receivedAt });
  return { title: event.title, culprit: event.culprit };
}
