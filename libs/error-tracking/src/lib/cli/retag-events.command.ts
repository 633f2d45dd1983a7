import { Command, CommandRunner } from 'nest-commander';
import { CliOption, printLine } from '@quitanda/cli';

import { RETAG_BATCH, RetagService } from '../retitle/retag.service';
import { batchSize } from './batch-option';

@Command({
  name: 'errors:retag',
  description:
    'Derive the tags of events stored before tags were kept and count them in their errors (batched; safe while running; repeatable)',
})
export class RetagEventsCommand extends CommandRunner {
  constructor(private readonly retag: RetagService) {
    super();
  }

  async run(_args: string[], options: { batch?: number }): Promise<void> {
    const started = performance.now();
    const result = await this.retag.run(options.batch ?? RETAG_BATCH);
    const ms = Math.round(performance.now() - started);
    printLine(
      `Tags: ${result.read} events without tags read, ${result.tagged} tagged in ${ms} ms.`,
    );
  }

  @CliOption(
    '--batch <size>',
    `events per transaction (default ${RETAG_BATCH})`,
  )
  parseBatch(value: string): number {
    return batchSize(value);
  }
}
