import type { IncomingMessage } from 'node:http';

import { Inject, Injectable } from '@nestjs/common';
import { isConnectionFailure } from '@quitanda/database';
import {
  holdBodyBytes,
  noteBodyLimit,
  parsedExtraBytes,
  pauseDeadline,
  restartDeadline,
} from '@quitanda/http';
import { CLOCK, TransportError, TransportErrorKind } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import { readBody } from '../http/read-body';
import {
  SourceMapResolver,
  SourceMapsUnavailableError,
} from '../artifacts/source-map-resolver';
import { AttachmentsRepository } from '../attachments/attachments.repository';
import { ClientKeyCache } from '../settings/client-key-cache';
import type { CollectorKey } from '../settings/collector-keys.repository';
import { AttachmentIntake } from './attachment-intake';
import { decodeBody } from './decode-body';
import { decodedChunks } from './decoded-chunks';
import type { IngestRequest, IngestVerdict } from './ingest-request';
import { IngestionQueue } from './ingestion-queue';
import { IngestionMetrics } from './ingestion.metrics';
import { chooseEventId } from './normalize-event';
import { parseStore, prepareParsed } from './prepare-request';
import type {
  ParsedEvent,
  ParsedRequest,
  PrepareContext,
} from './prepare-request';
import { recordedQuantities } from './rate-limit-categories';
import { RateLimiter } from './rate-limiter';
import { readEnvelope } from './read-envelope';
import { hasKeyOutsideBody, resolvePublicKey } from './sentry-auth';
import type { AuthSources } from './sentry-auth';

/**
 * The most of the body budget one request may hold before its key is
 * known (a key only in the envelope header): a 64 KB body, what it
 * decodes to at once (1 MiB) and a header line fit; more is refused, so
 * no unauthenticated connection takes more than a small share.
 */
export const UNAUTHENTICATED_HOLD_BYTES = 2 * 1024 * 1024;

function tooMuchBeforeKey(): TransportError {
  return new TransportError(
    TransportErrorKind.PayloadTooLarge,
    `More than ${UNAUTHENTICATED_HOLD_BYTES} bytes of the body came before its key: send the key in the URL or X-Sentry-Auth.`,
  );
}

export type CollectorEndpoint = 'store' | 'envelope';

/** What the collector controller hands over from the HTTP request. */
export interface CollectorRequest {
  readonly endpoint: CollectorEndpoint;
  readonly projectId: string;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: IncomingMessage['headers'];
  readonly body: IncomingMessage;
  readonly clientIp?: string;
}

export interface CollectorResponse {
  /** 32-hex id of the (first) event; absent when there was none. */
  readonly id?: string;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function rejectionReason(error: unknown): string {
  if (error instanceof ErrorTrackingError) return error.code;
  if (error instanceof TransportError) return error.kind;
  return 'internal';
}

/**
 * The Sentry collector: authenticate, read and decode the body, parse it,
 * normalise and group its events, and hand it to the group commit.
 */
@Injectable()
export class IngestionService {
  constructor(
    private readonly keys: ClientKeyCache,
    private readonly queue: IngestionQueue,
    private readonly metrics: IngestionMetrics,
    private readonly sourceMaps: SourceMapResolver,
    private readonly attachments: AttachmentsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ERROR_TRACKING_OPTIONS)
    private readonly options: ErrorTrackingModuleOptions,
  ) {}

  async ingest(request: CollectorRequest): Promise<CollectorResponse> {
    try {
      const response = await this.process(request);
      this.metrics.requests.inc({
        endpoint: request.endpoint,
        outcome: 'accepted',
      });
      return response;
    } catch (error) {
      this.metrics.requests.inc({
        endpoint: request.endpoint,
        outcome: rejectionReason(error),
      });
      throw error;
    }
  }

  private async process(request: CollectorRequest): Promise<CollectorResponse> {
    const receivedAt = this.clock.now();
    const intake =
      request.endpoint === 'envelope' && this.options.maxAttachmentBytes > 0
        ? new AttachmentIntake(this.attachments, {
            // Attachments come after the envelope header, so after the
            // key is checked against this project.
            projectId: Number(request.projectId),
            receivedAt,
            maxBytes: this.options.maxAttachmentBytes,
            maxProjectBytes: this.options.maxProjectAttachmentBytes,
            hold: (bytes) => holdBodyBytes(request.body, bytes),
          })
        : undefined;
    try {
      return await this.processWith(request, receivedAt, intake);
    } catch (error) {
      try {
        await intake?.abandon();
      } catch {
        // The request's own failure is the one to answer with; rows left
        // unlinked are retention's.
      }
      throw error;
    }
  }

  private async processWith(
    request: CollectorRequest,
    receivedAt: Date,
    intake: AttachmentIntake | undefined,
  ): Promise<CollectorResponse> {
    // Early answers (a bad key) drop at most this much of the body.
    noteBodyLimit(request.body, this.options.maxBodyBytes);
    const sources: AuthSources = {
      query: request.query['sentry_key'],
      xSentryAuth: header(request.headers['x-sentry-auth']),
      authorization: header(request.headers['authorization']),
    };
    // Refuse a bad key before reading what may be a large body (a store
    // body has no envelope header: its key can only be outside it).
    const keyOutsideBody =
      request.endpoint === 'store' || hasKeyOutsideBody(sources);
    let key = keyOutsideBody
      ? await this.authorize(resolvePublicKey(sources), request.projectId)
      : undefined;
    const context = {
      receivedAt,
      clientIp: request.clientIp,
      maxEventBytes: this.options.maxEventBytes,
      // What an event parses into is held too: a 1 MiB event of `{},` is
      // 340,000 objects in the heap.
      weighParsed: (values: number, textBytes: number) =>
        holdBodyBytes(request.body, parsedExtraBytes(values, textBytes)),
    };

    let parsed: ParsedRequest;
    if (request.endpoint === 'store') {
      parsed = parseStore(await this.readStore(request), context);
    } else {
      let heldBeforeKey = 0;
      const hold = (bytes: number) => {
        if (!key) {
          heldBeforeKey += bytes;
          if (heldBeforeKey > UNAUTHENTICATED_HOLD_BYTES)
            throw tooMuchBeforeKey();
        }
        holdBodyBytes(request.body, bytes);
      };
      // Read and inflated as it comes: skipped items (attachments, ...)
      // are dropped as they pass, and a key only the header's dsn carries
      // is checked on its first line.
      const envelope = await readEnvelope(
        decodedChunks(
          request.body,
          header(request.headers['content-encoding']),
          {
            maxBodyBytes: this.options.maxBodyBytes,
            maxDecodedBytes: this.options.maxEnvelopeBytes,
            hold,
          },
        ),
        {
          context,
          maxItems: this.options.maxEnvelopeItems,
          hold,
          attachments: intake,
          onHeader: async (envelopeHeader) => {
            // Only when the request itself carries no key.
            key ??= await this.authorize(
              resolvePublicKey({ ...sources, dsn: envelopeHeader['dsn'] }),
              request.projectId,
            );
          },
        },
      );
      parsed = envelope.request;
      if (intake && parsed.events.length === 0) {
        // Attachments belong to an event: without one they go, counted.
        const dropped = await intake.dropWithoutEvent();
        parsed = { ...parsed, discards: [...parsed.discards, ...dropped] };
      }
      if (intake) parsed = { ...parsed, attachments: intake.stored };
    }
    // An envelope header without a dsn, and no key elsewhere: 401.
    key ??= await this.authorize(resolvePublicKey(sources), request.projectId);
    // A key past its limit costs no source-map lookup.
    const now = this.clock.now();
    const demand = recordedQuantities(parsed);
    const exceeded = this.queue.rateLimiter.exceeded(key.keyId, demand, now);
    if (exceeded.length > 0) {
      this.metrics.events.inc(
        { outcome: 'rate_limited' },
        parsed.events.length,
      );
      throw ErrorTrackingError.rateLimited(
        RateLimiter.retryAfterSeconds(now),
        exceeded,
      );
    }
    for (const discard of parsed.discards)
      if (discard.source === 'server')
        this.metrics.discardedItems.inc({
          reason: discard.reason,
          category: discard.category,
        });

    // With a spool the queue bounds the wait for the database (maps to
    // read, then the commit) and spools past it, so the request's deadline
    // must not answer 503 first.
    const bounded = this.queue.boundsItsWait;
    if (bounded) pauseDeadline(request.body);
    const { verdict, firstId } = await this.store(
      parsed,
      { keyId: key.keyId, projectId: key.projectId, receivedAt },
      context,
    ).finally(() => {
      if (bounded) restartDeadline(request.body);
    });
    if (intake) await this.settleAttachments(intake, verdict, firstId);
    switch (verdict) {
      case 'forbidden':
        throw ErrorTrackingError.forbidden(
          'Client key deleted or error tracking disabled for this project',
        );
      case 'rate_limited': {
        const at = this.clock.now();
        const reached = this.queue.rateLimiter.reached(
          key.keyId,
          demand.keys(),
          at,
        );
        throw ErrorTrackingError.rateLimited(
          RateLimiter.retryAfterSeconds(at),
          reached.length > 0 ? reached : [...demand.keys()].sort(),
        );
      }
      case 'ok':
      case 'spooled':
      case 'replayed':
        break;
    }
    return firstId ? { id: firstId } : {};
  }

  /**
   * Attachments become the (first) event's once it is stored or spooled;
   * those of a refused request go.
   */
  private async settleAttachments(
    intake: AttachmentIntake,
    verdict: IngestVerdict,
    eventId: string | undefined,
  ): Promise<void> {
    const kept = verdict === 'ok' || verdict === 'spooled';
    if (!kept || !eventId) {
      await intake.abandon();
      return;
    }
    const linked = await intake.link(eventId);
    this.metrics.attachmentsStored.inc(linked.count);
    this.metrics.attachmentBytesStored.inc(linked.bytes);
    if (linked.lost > 0)
      this.metrics.discardedItems.inc(
        { reason: 'database_unavailable', category: 'attachment' },
        linked.lost,
      );
  }

  /**
   * Resolves the events' frames, normalises and groups them, and hands the
   * request to the group commit. When the maps an event needs are not
   * cached and the database cannot be read in time, the request is spooled
   * as parsed (its frames resolved when it drains) under the event ids
   * answered now.
   */
  private async store(
    parsed: ParsedRequest,
    owner: Pick<IngestRequest, 'keyId' | 'projectId' | 'receivedAt'>,
    context: PrepareContext,
  ): Promise<{ verdict: IngestVerdict; firstId?: string }> {
    const waitMs = this.queue.waitBudgetMs();
    const started = performance.now();
    let events: ParsedEvent[];
    try {
      // Source maps are the project's own: frames resolve only once the key is known.
      events = await Promise.all(
        parsed.events.map(async (event) => ({
          ...event,
          raw: await this.sourceMaps.resolve(
            event.raw,
            owner.projectId,
            waitMs,
          ),
        })),
      );
    } catch (error) {
      if (
        !(error instanceof SourceMapsUnavailableError) &&
        !isConnectionFailure(error)
      )
        throw error;
      const unresolved = parsed.events.map((event) => ({
        raw: event.raw,
        eventId: chooseEventId(event.envelopeEventId, event.raw['event_id']),
        clientIp: context.clientIp,
      }));
      const verdict = await this.queue.spoolNow(
        { ...parsed, ...owner, events: unresolved },
        error,
      );
      return { verdict, firstId: unresolved[0]?.eventId };
    }
    const prepared = prepareParsed({ ...parsed, events }, context);
    const remaining =
      waitMs === undefined
        ? undefined
        : Math.max(0, waitMs - (performance.now() - started));
    const verdict = await this.queue.submit(
      { ...prepared, ...owner },
      remaining,
    );
    return { verdict, firstId: prepared.events[0]?.eventId };
  }

  /** The whole body, read then decoded (the key was checked already). */
  private async readWhole(
    request: CollectorRequest,
    maxDecodedBytes: number,
  ): Promise<Buffer> {
    const raw = await readBody(request.body, this.options.maxBodyBytes);
    // Inflating waits for CPU (large bodies one at a time), not for the
    // database: the request's deadline does not run meanwhile.
    pauseDeadline(request.body);
    try {
      return await decodeBody(
        raw,
        header(request.headers['content-encoding']),
        maxDecodedBytes,
        (bytes) => holdBodyBytes(request.body, bytes),
      );
    } finally {
      restartDeadline(request.body);
    }
  }

  /** A store body is one event: inflating past the event limit is waste. */
  private readStore(request: CollectorRequest): Promise<Buffer> {
    return this.readWhole(request, this.options.maxEventBytes);
  }

  private async authorize(
    publicKey: string,
    projectId: string,
  ): Promise<CollectorKey> {
    // A NUL is in no key, and PostgreSQL would refuse it as text.
    const key = publicKey.includes('\u0000')
      ? undefined
      : await this.keys.lookup(publicKey);
    if (!key)
      throw ErrorTrackingError.forbidden('Unknown or deleted client key');
    if (!/^\d+$/.test(projectId) || key.projectId !== Number(projectId))
      throw ErrorTrackingError.forbidden(
        'The client key does not belong to this project',
      );
    if (!key.trackingActive)
      throw ErrorTrackingError.forbidden(
        'Error tracking is not enabled for this project',
      );
    return key;
  }
}
