import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { runCli } from '../support/gateway-process';
import { watchForCrashes } from '../support/crash-watch';
import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

export const OPERATOR_EMAIL = 'ops@example.com';
export const OPERATOR_PASSWORD = 'operator password 123';
export const MANAGE_KEY = 'manage-key-0123456789abcdef0123456789';

/** kinvey-cli 6.1.3's own executable, from node_modules. */
const KINVEY_BIN = require.resolve('kinvey-cli/bin/kinvey');

export interface KinveyRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * kinvey-cli run as an operator runs it, in a HOME (and working directory)
 * of its own, so its profiles live and die with the test file.
 */
export interface KinveyCli {
  /** The management URL to pass as `--instanceId`. */
  readonly instanceUrl: string;
  readonly home: string;
  run(args: readonly string[]): Promise<KinveyRun>;
  /** Runs with `--output json` and parses stdout; throws on failure. */
  json<T>(args: readonly string[]): Promise<T>;
  close(): Promise<void>;
}

export async function kinveyCli(gw: TestGateway): Promise<KinveyCli> {
  const home = await mkdtemp(join(tmpdir(), 'quitanda-kinvey-cli-'));
  const run = (args: readonly string[]): Promise<KinveyRun> => {
    const child = spawn(process.execPath, [KINVEY_BIN, ...args], {
      cwd: home,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: home,
        // No request to the npm registry for a newer version.
        NO_UPDATE_NOTIFIER: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    watchForCrashes(child, 'kinvey-cli');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  };
  return {
    instanceUrl: `${gw.url}/manage/`,
    home,
    run,
    async json<T>(args: readonly string[]): Promise<T> {
      const result = await run([...args, '--output', 'json']);
      if (result.code !== 0)
        throw new Error(
          `kinvey ${args.join(' ')} exited ${result.code}: ${result.stderr}${result.stdout}`,
        );
      return JSON.parse(result.stdout) as T;
    },
    close: () => rm(home, { recursive: true, force: true }),
  };
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** kinvey-cli's interactive `init`, answered prompt by prompt. */
export interface KinveyPrompts {
  /** Waits until the terminal shows `prompt`, then types `text` and Enter. */
  answer(prompt: RegExp, text: string): Promise<void>;
  /** Everything shown, colours removed. */
  screen(): string;
  readonly exited: Promise<number | null>;
}

/**
 * Runs `kinvey <args>` on a pseudo-terminal (util-linux `script`), as an
 * operator types at it: its prompts (inquirer) want a terminal.
 */
export function kinveyOnTerminal(
  cli: KinveyCli,
  args: readonly string[],
): KinveyPrompts {
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, KINVEY_BIN, ...args].map(quote).join(' ');
  const terminal = spawn('script', ['-qefc', `exec ${command}`, '/dev/null'], {
    cwd: cli.home,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: cli.home,
      NO_UPDATE_NOTIFIER: '1',
      SHELL: '/bin/sh',
      TERM: 'xterm',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  watchForCrashes(terminal, 'kinvey-cli');
  let shown = '';
  // Registered first: every later listener sees the chunk already added.
  terminal.stdout.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  let answered = 0;
  const screen = () => shown.replace(ANSI, '').replace(/\r/g, '');
  const exited = new Promise<number | null>((resolve, reject) => {
    terminal.once('error', reject);
    terminal.once('exit', (code) => resolve(code));
  });
  // Each wait looks only past what earlier answers consumed.
  const seen = (prompt: RegExp) => prompt.test(screen().slice(answered));
  return {
    screen,
    exited,
    async answer(prompt, text) {
      if (!seen(prompt))
        await new Promise<void>((resolve, reject) => {
          const onData = () => {
            if (!seen(prompt)) return;
            terminal.stdout.off('data', onData);
            resolve();
          };
          terminal.stdout.on('data', onData);
          exited.then(
            () => reject(new Error(`exited before ${prompt}:\n${screen()}`)),
            reject,
          );
        });
      answered = screen().length;
      terminal.stdin.write(`${text}\r`);
    },
  };
}

/**
 * A test gateway with the management API on, an operator account, and
 * kinvey-cli holding a profile `ops` of that account.
 */
export async function startWithOperatorProfile(
  env: Record<string, string> = {},
): Promise<{ gw: TestGateway; cli: KinveyCli }> {
  const gw = await startTestGateway({
    MARKETPLACE_MANAGE_ENCRYPTION_KEY: MANAGE_KEY,
    ...env,
  });
  await createOperator(gw);
  const cli = await kinveyCli(gw);
  const created = await cli.run([
    'profile',
    'create',
    'ops',
    '--email',
    OPERATOR_EMAIL,
    '--password',
    OPERATOR_PASSWORD,
    '--instanceId',
    cli.instanceUrl,
  ]);
  if (created.code !== 0) throw new Error(created.stderr + created.stdout);
  return { gw, cli };
}

/** kinvey-cli arguments run as the profile `ops`. */
export const asOps = (...args: string[]): string[] => [
  ...args,
  '--profile',
  'ops',
];

/** `marketplace:operators:create`, the password on standard input. */
export async function createOperator(
  gw: TestGateway,
  email = OPERATOR_EMAIL,
  password = OPERATOR_PASSWORD,
): Promise<void> {
  const created = await runCli(
    ['marketplace:operators:create', '--email', email],
    { DATABASE_URL: gw.databaseUrl, DATA_DIR: gw.dataDir },
    `${password}\n`,
  );
  if (created.code !== 0) throw new Error(created.stderr);
}
