import { Injectable } from '@nestjs/common';

import { tagsJsonOf } from '../ingestion/derived-tags';
import { RetagRepository } from './retag.repository';
import type { EventPosition } from './retag.repository';

export interface RetagResult {
  /** Events found without tags. */
  readonly read: number;
  /** Events tagged and counted (the rest expired meanwhile). */
  readonly tagged: number;
}

/** Events per batch: each batch is one short transaction. */
export const RETAG_BATCH = 500;

const START: EventPosition = {
  errorId: '0',
  timestamp: new Date(0),
  eventId: '00000000-0000-0000-0000-000000000000',
};

/**
 * Gives the events stored before tags were derived their tags (the SDK's
 * and the derived ones, as the collector now stores them) and counts them
 * in their errors' tag distributions, batch by batch in key order: safe
 * while the collector and retention run, and safe to run again (an event
 * with tags is never counted twice).
 */
@Injectable()
export class RetagService {
  constructor(private readonly repository: RetagRepository) {}

  async run(batchSize = RETAG_BATCH): Promise<RetagResult> {
    let read = 0;
    let tagged = 0;
    for (let after = START; ;) {
      const batch = await this.repository.untaggedAfter(after, batchSize);
      tagged += await this.repository.tag(
        batch.map((event) => ({ ...event, tagsJson: tagsJsonOf(event) })),
      );
      read += batch.length;
      const last = batch[batch.length - 1];
      if (!last || batch.length < batchSize) return { read, tagged };
      after = last;
    }
  }
}
