import { Module } from '@nestjs/common';

import { RetitleRepository } from './retitle.repository';
import { RetitleService } from './retitle.service';

/** Stored errors' titles and culprits brought to today's rules (the CLI's `errors:retitle`). */
@Module({
  providers: [RetitleRepository, RetitleService],
  exports: [RetitleService],
})
export class RetitleModule {}
