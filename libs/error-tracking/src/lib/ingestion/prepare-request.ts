import { ErrorTrackingError } from '../common/error-tracking.errors';
import { isJsonObject } from '../sentry-event/event-json';
import type { JsonObject } from '../sentry-event/event-json';
import { parseEnvelope } from './envelope';
import type { EnvelopeItem } from './envelope';
import { eventTags } from './derived-tags';
import { groupingCandidates, userKeyOf } from './grouping';
import type { PreparedEvent, PreparedRequest } from './ingest-request';
import { TAG_MAX } from './limits';
import { normalizeEvent, truncate } from './normalize-event';
import { parsePayloadJson, restoreExactIntegers } from './payload-json';
import {
  parseClientReport,
  parseSession,
  parseSessionAggregates,
} from './release-health-items';
import type {
  Discard,
  SessionBucket,
  SessionUpdate,
} from './release-health-items';
import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import { wellFormedJson } from './well-formed-json';

export interface PrepareContext {
  readonly receivedAt: Date;
  readonly clientIp?: string;
  readonly maxEventBytes: number;
  /**
   * Told what each payload parses into (`values`, at most, from a text of
   * `textBytes`) while it is parsed; may throw (the body budget).
   */
  readonly weighParsed?: (values: number, textBytes: number) => void;
}

/** `parsePayloadJson` of `payload`, weighed as `context` says. */
function parseWeighed(payload: Buffer, context: PrepareContext): unknown {
  const { weighParsed } = context;
  return parsePayloadJson(
    payload,
    0,
    payload.length,
    weighParsed && ((values) => weighParsed(values, payload.length)),
  );
}

export function serializePayload(payload: JsonObject): string {
  return restoreExactIntegers(wellFormedJson(payload));
}

function eventTooLarge(maxBytes: number): TransportError {
  return new TransportError(
    TransportErrorKind.PayloadTooLarge,
    `An event is larger than ${maxBytes} bytes.`,
  );
}

export function prepareEvent(
  raw: JsonObject,
  context: Pick<PrepareContext, 'receivedAt' | 'clientIp'>,
  envelopeEventId?: unknown,
): PreparedEvent {
  const event = normalizeEvent(raw, {
    receivedAt: context.receivedAt,
    clientIp: context.clientIp,
    envelopeEventId,
  });
  const [grouping, previous, older] = groupingCandidates(event);
  return {
    eventId: event.eventId,
    timestamp: event.timestamp,
    receivedAt: event.receivedAt,
    fingerprint: grouping?.fingerprint as string,
    groupingVersion: grouping?.version as number,
    previousFingerprint: previous?.fingerprint ?? null,
    olderFingerprint: older?.fingerprint ?? null,
    level: event.level,
    logger: event.logger,
    release: event.release,
    environment: event.environment,
    platform: event.platform,
    title: event.title,
    type: event.type,
    message: event.value,
    culprit: event.culprit,
    userKey: userKeyOf(event),
    payloadJson: serializePayload(event.payload),
    tagsJson: wellFormedJson(eventTags(event.payload, event.tags)),
  };
}

/** An event parsed from a request, before source maps and normalisation. */
export interface ParsedEvent {
  readonly raw: JsonObject;
  /** The envelope header's `event_id` (for the envelope's first event). */
  readonly envelopeEventId?: unknown;
}

/** A request parsed, its events not yet normalised and grouped. */
export interface ParsedRequest extends Omit<PreparedRequest, 'events'> {
  readonly events: readonly ParsedEvent[];
}

/** Normalises and groups the parsed events (after their frames are resolved). */
export function prepareParsed(
  parsed: ParsedRequest,
  context: PrepareContext,
): PreparedRequest {
  return {
    ...parsed,
    events: parsed.events.map((event) =>
      prepareEvent(event.raw, context, event.envelopeEventId),
    ),
  };
}

/** `POST .../store/`: the body is one event. */
export function parseStore(
  body: Buffer,
  context: PrepareContext,
): ParsedRequest {
  if (body.length > context.maxEventBytes)
    throw eventTooLarge(context.maxEventBytes);
  let raw: unknown;
  try {
    raw = parseWeighed(body, context);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw ErrorTrackingError.badRequest('The event is not valid JSON.');
  }
  if (!isJsonObject(raw))
    throw ErrorTrackingError.badRequest('The event is not a JSON object.');
  return { events: [{ raw }], sessions: [], buckets: [], discards: [] };
}

export function prepareStore(
  body: Buffer,
  context: PrepareContext,
): PreparedRequest {
  return prepareParsed(parseStore(body, context), context);
}

function discard(acc: Discard[], item: EnvelopeItem, reason: string): void {
  acc.push({
    source: 'server',
    reason,
    // The item type is the client's text; it lands in a primary key.
    category: truncate(item.type || 'unknown', TAG_MAX),
    quantity: 1,
  });
}

/** The item's payload, or undefined when it is not JSON. */
function tryParse(item: EnvelopeItem, context: PrepareContext): unknown {
  try {
    return parseWeighed(item.payload, context);
  } catch (error) {
    // A refusal of the body budget ends the request; bad JSON, the item.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * The item types `EnvelopeItemsParser` reads; every other type is skipped
 * (counted as discarded), so its payload need not be held at all.
 */
const KEPT_ITEM_TYPES: ReadonlySet<string> = new Set([
  'event',
  'session',
  'sessions',
  'client_report',
]);

export function isKeptItemType(type: string): boolean {
  return KEPT_ITEM_TYPES.has(type);
}

/**
 * An envelope's items parsed one by one as they are framed: every item
 * handled on its own; a bad item is skipped and counted, never the
 * envelope (broken framing aside, which `EnvelopeFramer` refuses whole).
 */
export class EnvelopeItemsParser {
  private readonly events: ParsedEvent[] = [];
  private readonly sessions: SessionUpdate[] = [];
  private readonly buckets: SessionBucket[] = [];
  private readonly discards: Discard[] = [];
  private headerEventIdUsed = false;

  constructor(private readonly context: PrepareContext) {}

  add(item: EnvelopeItem, envelopeHeader: JsonObject): void {
    const { context, discards } = this;
    switch (item.type) {
      case 'event': {
        if (item.payload.length > context.maxEventBytes)
          throw eventTooLarge(context.maxEventBytes);
        const raw = tryParse(item, context);
        if (!isJsonObject(raw)) {
          discard(discards, item, 'invalid_payload');
          break;
        }
        // The envelope's event_id names its (first) event.
        const headerId = this.headerEventIdUsed
          ? undefined
          : envelopeHeader['event_id'];
        this.headerEventIdUsed = true;
        this.events.push({ raw, envelopeEventId: headerId });
        break;
      }
      case 'session': {
        const session = parseSession(
          tryParse(item, context),
          context.receivedAt,
        );
        if (session) this.sessions.push(session);
        else discard(discards, item, 'invalid_payload');
        break;
      }
      case 'sessions': {
        const buckets = parseSessionAggregates(
          tryParse(item, context),
          context.receivedAt,
        );
        if (buckets) this.buckets.push(...buckets);
        else discard(discards, item, 'invalid_payload');
        break;
      }
      case 'client_report': {
        const reported = parseClientReport(tryParse(item, context));
        if (reported) discards.push(...reported);
        else discard(discards, item, 'invalid_payload');
        break;
      }
      default:
        // transaction, attachment, user_report, feedback, check_in, ...
        discard(discards, item, 'unsupported_item');
    }
  }

  get request(): ParsedRequest {
    return {
      events: this.events,
      sessions: this.sessions,
      buckets: this.buckets,
      discards: this.discards,
    };
  }
}

/** `POST .../envelope/`, the whole body at once (tests, tools). */
export function parseEnvelopeRequest(
  body: Buffer,
  context: PrepareContext,
  maxItems?: number,
): { request: ParsedRequest; header: JsonObject } {
  const envelope = parseEnvelope(body, maxItems);
  const parser = new EnvelopeItemsParser(context);
  for (const item of envelope.items) parser.add(item, envelope.header);
  return { request: parser.request, header: envelope.header };
}

/** `parseEnvelopeRequest`, its events normalised and grouped as sent. */
export function prepareEnvelope(
  body: Buffer,
  context: PrepareContext,
): { request: PreparedRequest; header: JsonObject } {
  const parsed = parseEnvelopeRequest(body, context);
  return {
    request: prepareParsed(parsed.request, context),
    header: parsed.header,
  };
}
