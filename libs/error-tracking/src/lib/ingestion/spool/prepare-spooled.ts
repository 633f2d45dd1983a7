import type { SourceMapResolver } from '../../artifacts/source-map-resolver';
import type { IngestRequest, PreparedEvent } from '../ingest-request';
import { prepareEvent } from '../prepare-request';
import { isUnresolved } from './spooled-request';
import type { SpooledRequest } from './spooled-request';

/**
 * A spooled request as the flush takes it: each unresolved event has its
 * frames resolved now (the maps read as the collector would have read
 * them), then is normalised and grouped with the id and arrival time it
 * was acknowledged with. Throws what the resolver throws when the database
 * cannot be reached (the drainer then keeps the request for later).
 */
export async function prepareSpooled(
  request: SpooledRequest,
  sourceMaps: SourceMapResolver,
): Promise<IngestRequest> {
  const events: PreparedEvent[] = [];
  for (const event of request.events)
    events.push(
      isUnresolved(event)
        ? prepareEvent(
            await sourceMaps.resolve(event.raw, request.projectId),
            { receivedAt: request.receivedAt, clientIp: event.clientIp },
            event.eventId,
          )
        : event,
    );
  return { ...request, events };
}
