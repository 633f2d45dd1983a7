import { Injectable } from '@nestjs/common';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { ProjectAccess } from '../projects/project.types';
import type { ErrorRecord, EventNeighbours, StoredEvent } from './error.types';
import { ErrorsRepository } from './errors.repository';
import { ErrorsService } from './errors.service';

/** Names of an error's events besides their ids (Sentry's too). */
export const EVENT_EDGES = ['latest', 'oldest'] as const;
export type EventEdge = (typeof EVENT_EDGES)[number];

/** One event of an error, and the events to step to from it. */
export interface ErrorEventAt {
  readonly error: ErrorRecord;
  readonly eventId: string;
  readonly event: StoredEvent;
  readonly neighbours: EventNeighbours;
}

function isEdge(ref: string): ref is EventEdge {
  return (EVENT_EDGES as readonly string[]).includes(ref);
}

/** An error's events one at a time: by id, oldest or latest, and around one. */
@Injectable()
export class ErrorEventsService {
  constructor(
    private readonly errors: ErrorsService,
    private readonly repository: ErrorsRepository,
  ) {}

  /**
   * The event `ref` names: an event id, or `latest` or `oldest` by the
   * events' time; Event Not Found when there is none.
   */
  async find(
    access: ProjectAccess,
    errorId: string,
    ref: string,
  ): Promise<Omit<ErrorEventAt, 'neighbours'>> {
    const error = await this.errors.find(access, errorId);
    const eventId = isEdge(ref)
      ? await this.repository.edgeEventId(error.id, ref)
      : ref.replace(/-/g, '').toLowerCase();
    const event =
      eventId !== undefined && /^[0-9a-f]{32}$/.test(eventId)
        ? await this.repository.findEvent(access.project.id, error.id, eventId)
        : undefined;
    if (!event || eventId === undefined)
      throw ErrorTrackingError.notFound('Event');
    return { error, eventId, event };
  }

  /** `find`, and the oldest, older, newer and latest events around it. */
  async eventAt(
    access: ProjectAccess,
    errorId: string,
    ref: string,
  ): Promise<ErrorEventAt> {
    const found = await this.find(access, errorId, ref);
    return { ...found, neighbours: await this.neighbours(found) };
  }

  /** An error's latest event by time with its neighbours; none if none is kept. */
  async latestOf(
    access: ProjectAccess,
    error: ErrorRecord,
  ): Promise<ErrorEventAt | undefined> {
    const eventId = await this.repository.edgeEventId(error.id, 'latest');
    const event =
      eventId === undefined
        ? undefined
        : await this.repository.findEvent(access.project.id, error.id, eventId);
    if (!event || eventId === undefined) return undefined;
    const found = { error, eventId, event };
    return { ...found, neighbours: await this.neighbours(found) };
  }

  private neighbours(
    found: Omit<ErrorEventAt, 'neighbours'>,
  ): Promise<EventNeighbours> {
    return this.repository.eventNeighbours(found.error.id, {
      timestamp: found.event.timestamp,
      eventId: found.eventId,
    });
  }
}
