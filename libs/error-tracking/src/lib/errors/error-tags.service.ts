import { Injectable } from '@nestjs/common';

import { ErrorsService } from './errors.service';
import type { ProjectAccess } from '../projects/project.types';
import { ErrorTagsRepository } from './error-tags.repository';
import { MAX_TAG_KEYS, TOP_TAG_VALUES } from './tag-distribution';
import type { TagKeyDistribution } from './tag-distribution';

/** An error's tags panel: each key's top values with counts and shares. */
@Injectable()
export class ErrorTagsService {
  constructor(
    private readonly errors: ErrorsService,
    private readonly tags: ErrorTagsRepository,
  ) {}

  async distribution(
    access: ProjectAccess,
    errorId: string,
  ): Promise<TagKeyDistribution[]> {
    const error = await this.errors.find(access, errorId);
    return this.tags.distribution(error.id, MAX_TAG_KEYS, TOP_TAG_VALUES);
  }
}
