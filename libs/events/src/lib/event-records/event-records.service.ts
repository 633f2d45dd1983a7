import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, isUuid, keysetPage, newId } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { EventsError } from '../common/events.errors';
import type {
  EventRecord,
  EventRecordChanges,
  EventRecordInput,
  ExpectedVersions,
} from './event-record';
import { EventRecordsRepository } from './event-records.repository';
import type { WriteOutcome } from './event-records.repository';
import { decodeCursor, encodeCursor } from './list-cursor';

export interface EventPage {
  readonly items: readonly EventRecord[];
  /** Cursor of the next page, absent on the last one. */
  readonly nextCursor?: string;
}

@Injectable()
export class EventRecordsService {
  constructor(
    private readonly repository: EventRecordsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  create(input: EventRecordInput): Promise<EventRecord> {
    const now = this.clock.now();
    return this.repository.insert({
      id: newId(),
      title: input.title,
      description: input.description ?? '',
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
  }

  async get(id: string): Promise<EventRecord> {
    const record = isUuid(id) ? await this.repository.findById(id) : undefined;
    if (!record) throw EventsError.notFound(id);
    return record;
  }

  /** The cheap existence probe behind `GET /events/:id/test`. */
  async assertExists(id: string): Promise<void> {
    if (!isUuid(id) || !(await this.repository.exists(id))) {
      throw EventsError.notFound(id);
    }
  }

  async list(options: {
    limit: number;
    cursor?: string;
    search?: string;
  }): Promise<EventPage> {
    const after =
      options.cursor === undefined ? undefined : decodeCursor(options.cursor);
    if (options.cursor !== undefined && !after) {
      throw EventsError.validation([
        { field: 'cursor', message: 'is not a cursor this API handed out' },
      ]);
    }
    // One extra row tells whether another page follows.
    const rows = await this.repository.list({
      limit: options.limit + 1,
      after,
      search: options.search || undefined,
    });
    const { items, next } = keysetPage(rows, options.limit);
    return next ? { items, nextCursor: encodeCursor(next) } : { items };
  }

  update(
    id: string,
    changes: EventRecordChanges,
    expected: ExpectedVersions,
  ): Promise<EventRecord> {
    return this.write(id, () =>
      this.repository.update(id, changes, expected, this.clock.now()),
    );
  }

  /** Full replacement: an omitted description becomes empty, as on create. */
  replace(
    id: string,
    input: EventRecordInput,
    expected: ExpectedVersions,
  ): Promise<EventRecord> {
    return this.update(
      id,
      { title: input.title, description: input.description ?? '' },
      expected,
    );
  }

  async delete(id: string, expected: ExpectedVersions): Promise<void> {
    await this.write(id, () => this.repository.delete(id, expected));
  }

  private async write<T>(
    id: string,
    attempt: () => Promise<WriteOutcome<T>>,
  ): Promise<T> {
    if (!isUuid(id)) throw EventsError.notFound(id);
    const outcome = await attempt();
    switch (outcome.status) {
      case 'ok':
        return outcome.value;
      case 'not_found':
        throw EventsError.notFound(id);
      case 'precondition_failed':
        throw EventsError.preconditionFailed();
    }
  }
}
