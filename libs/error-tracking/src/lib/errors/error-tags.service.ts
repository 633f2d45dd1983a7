import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { fillDays, firstChartDay } from './daily-counts';
import type { DailyCounts } from './daily-counts';
import { ErrorsService } from './errors.service';
import type { ProjectAccess } from '../projects/project.types';
import { ErrorTagsRepository } from './error-tags.repository';
import {
  MAX_PICKER_RELEASES,
  MAX_TAG_KEYS,
  TOP_TAG_VALUES,
} from './tag-distribution';
import type { TagKeyDistribution, TagValueCount } from './tag-distribution';

/**
 * What the error page and the list read beside the errors: each key's top
 * tag values with counts and shares, counts under a picker's selection, the
 * release picker's choices, the 30-day chart.
 */
@Injectable()
export class ErrorTagsService {
  constructor(
    private readonly errors: ErrorsService,
    private readonly tags: ErrorTagsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async distribution(
    access: ProjectAccess,
    errorId: string,
    topValues = TOP_TAG_VALUES,
  ): Promise<TagKeyDistribution[]> {
    const error = await this.errors.find(access, errorId);
    return this.tags.distribution(error.id, MAX_TAG_KEYS, topValues);
  }

  /** One key's values of an error, most frequent first, at most `limit`. */
  async values(
    access: ProjectAccess,
    errorId: string,
    key: string,
    limit: number,
  ): Promise<TagValueCount[]> {
    const error = await this.errors.find(access, errorId);
    return this.tags.values(error.id, key, limit);
  }

  /** Each listed error's kept events with one tag value. */
  valueCounts(
    errorIds: readonly string[],
    key: string,
    value: string,
  ): Promise<Map<string, number>> {
    return this.tags.valueCounts(errorIds, key, value);
  }

  /** The release picker's choices. */
  releases(access: ProjectAccess): Promise<string[]> {
    return this.tags.releases(access.project.id, MAX_PICKER_RELEASES);
  }

  /** The error page's 30-day chart: events per UTC day. */
  async dailyCounts(
    access: ProjectAccess,
    errorId: string,
  ): Promise<DailyCounts> {
    const error = await this.errors.find(access, errorId);
    const now = this.clock.now();
    return fillDays(
      now,
      await this.tags.dailyCounts(error.id, firstChartDay(now)),
    );
  }
}
