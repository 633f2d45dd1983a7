import { Injectable } from '@nestjs/common';

import { rederiveTitle } from './rederive-title';
import type { Retitled } from './retitle.repository';
import { RetitleRepository } from './retitle.repository';

export interface RetitleResult {
  /** Errors read. */
  readonly errors: number;
  /** Errors whose title or culprit changed. */
  readonly changed: number;
}

/** Errors per batch: each batch is one short transaction. */
export const RETITLE_BATCH = 500;

/**
 * Re-derives every stored error's title and culprit from its latest event
 * by today's rules, batch by batch in id order: safe while the collector
 * runs (see `RetitleRepository.update`), and safe to run again.
 */
@Injectable()
export class RetitleService {
  constructor(private readonly repository: RetitleRepository) {}

  async run(batchSize = RETITLE_BATCH): Promise<RetitleResult> {
    let errors = 0;
    let changed = 0;
    for (let after = '0'; ;) {
      const batch = await this.repository.errorsAfter(after, batchSize);
      const retitled: Retitled[] = [];
      for (const error of batch) {
        if (!error.payload || !error.receivedAt) continue;
        const derived = rederiveTitle(error.payload, error.receivedAt);
        if (derived.title !== error.title || derived.culprit !== error.culprit)
          retitled.push({
            id: error.id,
            lastEventId: error.lastEventId,
            ...derived,
          });
      }
      changed += await this.repository.update(retitled);
      errors += batch.length;
      const last = batch[batch.length - 1];
      if (!last || batch.length < batchSize) return { errors, changed };
      after = last.id;
    }
  }
}
