import { randomUUID } from 'node:crypto';

import { Command, CommandRunner } from 'nest-commander';
import {
  CliOption,
  printLine,
  readSecret,
  refuseSecretArguments,
  requireOptions,
} from '@quitanda/cli';
import { CLOCK, hashPassword } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import { Inject } from '@nestjs/common';

import { MAX_PASSWORD, MIN_PASSWORD } from '../auth/credential-limits';
import { normalizeEmail } from '../manage/operator-sessions.service';
import { OperatorsRepository } from '../manage/operators.repository';

/** What kinvey-cli itself accepts as an address (it checks before sending). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAIL = 254;

@Command({
  name: 'marketplace:operators:create',
  description:
    'Create an operator account of the management API (kinvey-cli); the password is typed at a prompt or read from standard input',
})
export class CreateOperatorCommand extends CommandRunner {
  constructor(
    private readonly operators: OperatorsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
  }

  async run(args: string[], options: { email?: string }): Promise<void> {
    refuseSecretArguments(args);
    requireOptions(options, 'email');
    const email = normalizeEmail(options.email);
    if (email.length > MAX_EMAIL || !EMAIL.test(email))
      throw new Error(`Not an e-mail address: ${options.email}`);
    const password = await readSecret('Password');
    if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD)
      throw new Error(
        `The password needs ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`,
      );
    const created = await this.operators.insert(
      randomUUID(),
      email,
      await hashPassword(password),
      this.clock.now(),
    );
    if (!created) throw new Error(`An operator ${email} already exists.`);
    printLine(`Operator ${email} created.`);
  }

  @CliOption('--email <address>', "the operator's e-mail address (login)", true)
  parseEmail(value: string): string {
    return value;
  }
}
