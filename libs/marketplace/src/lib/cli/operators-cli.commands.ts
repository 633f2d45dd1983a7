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

function checkedEmail(options: { email?: string }): string {
  requireOptions(options, 'email');
  const email = normalizeEmail(options.email);
  if (email.length > MAX_EMAIL || !EMAIL.test(email))
    throw new Error(`Not an e-mail address: ${options.email}`);
  return email;
}

/** The new password, from a prompt or standard input, hashed. */
async function newPasswordHash(): Promise<string> {
  const password = await readSecret('Password');
  if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD)
    throw new Error(
      `The password needs ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`,
    );
  return hashPassword(password);
}

abstract class OperatorCommand extends CommandRunner {
  @CliOption('--email <address>', "the operator's e-mail address (login)", true)
  parseEmail(value: string): string {
    return value;
  }
}

@Command({
  name: 'marketplace:operators:create',
  description:
    'Create an operator account of the management API (kinvey-cli); the password is typed at a prompt or read from standard input',
})
export class CreateOperatorCommand extends OperatorCommand {
  constructor(
    private readonly operators: OperatorsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super();
  }

  async run(args: string[], options: { email?: string }): Promise<void> {
    refuseSecretArguments(args);
    const email = checkedEmail(options);
    const created = await this.operators.insert(
      randomUUID(),
      email,
      await newPasswordHash(),
      this.clock.now(),
    );
    if (!created) throw new Error(`An operator ${email} already exists.`);
    printLine(`Operator ${email} created.`);
  }
}

@Command({
  name: 'marketplace:operators:set-password',
  description:
    "Set an operator's password (prompt or standard input) and end the operator's sessions",
})
export class SetOperatorPasswordCommand extends OperatorCommand {
  constructor(private readonly operators: OperatorsRepository) {
    super();
  }

  async run(args: string[], options: { email?: string }): Promise<void> {
    refuseSecretArguments(args);
    const email = checkedEmail(options);
    if (!(await this.operators.setPassword(email, await newPasswordHash())))
      throw new Error(`No operator ${email}.`);
    printLine(`Password of ${email} set; its sessions ended.`);
  }
}

@Command({
  name: 'marketplace:operators:delete',
  description: 'Delete an operator account and end its sessions',
})
export class DeleteOperatorCommand extends OperatorCommand {
  constructor(private readonly operators: OperatorsRepository) {
    super();
  }

  async run(_args: string[], options: { email?: string }): Promise<void> {
    const email = checkedEmail(options);
    if (!(await this.operators.remove(email)))
      throw new Error(`No operator ${email}.`);
    printLine(`Operator ${email} deleted.`);
  }
}

export const OPERATOR_COMMANDS = [
  CreateOperatorCommand,
  SetOperatorPasswordCommand,
  DeleteOperatorCommand,
];
