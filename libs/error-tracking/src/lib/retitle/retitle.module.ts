import { Module } from '@nestjs/common';

import { RetagRepository } from './retag.repository';
import { RetagService } from './retag.service';
import { RetitleRepository } from './retitle.repository';
import { RetitleService } from './retitle.service';

/**
 * Stored errors' titles and culprits brought to today's rules (the CLI's
 * `errors:retitle`), and stored events' tags derived (`errors:retag`).
 */
@Module({
  providers: [RetitleRepository, RetitleService, RetagRepository, RetagService],
  exports: [RetitleService, RetagService],
})
export class RetitleModule {}
