import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { watchForCrashes } from './crash-watch';
import { mainCommand, mainEnvironment } from './main-process';

/** `main.ts` with a pseudo-terminal as its standard output, as a person runs it. */
export interface TerminalGateway {
  /** What the terminal showed so far, colours and carriage returns removed. */
  screen(): string;
  /** Resolves once the screen matches `pattern`; rejects past `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** The gateway's own pid (the terminal's `script` runs it by `exec`). */
  gatewayPid(): number;
  /** The gateway's exit code (`script -e` passes it on). */
  readonly exited: Promise<number | null>;
  /** SIGKILL to the gateway and its terminal, whatever state they are in. */
  kill(): void;
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * Runs the gateway under util-linux `script`, which gives it a
 * pseudo-terminal (so `process.stdout.isTTY` is true) and copies what it
 * shows to our pipe.
 */
export function spawnMainOnTerminal(
  env: Record<string, string>,
  cwd?: string,
): TerminalGateway {
  const command = `exec ${mainCommand().map(quote).join(' ')}`;
  const terminal = spawn('script', ['-qefc', command, '/dev/null'], {
    cwd,
    env: { ...mainEnvironment(env), SHELL: '/bin/sh', TERM: 'xterm' },
    // Standard input stays open: at its end `script` would type ^D.
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  watchForCrashes(terminal);
  let shown = '';
  terminal.stdout.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    terminal.once('error', reject);
    terminal.once('exit', (code) => resolve(code));
  });
  let pid: number | undefined;
  const screen = () => shown.replace(ANSI, '').replace(/\r/g, '');
  return {
    screen,
    exited,
    async waitFor(pattern, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(screen())) {
        if (terminal.exitCode !== null || terminal.signalCode !== null)
          throw new Error(`exited before ${pattern}:\n${screen()}`);
        if (Date.now() > deadline)
          throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${screen()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    gatewayPid() {
      if (pid === undefined) {
        const children = readFileSync(
          `/proc/${terminal.pid}/task/${terminal.pid}/children`,
          'utf8',
        ).trim();
        pid = Number(children.split(/\s+/)[0]);
        if (!Number.isInteger(pid) || pid <= 0)
          throw new Error(`script ${terminal.pid} has no child yet`);
      }
      return pid;
    },
    kill() {
      try {
        this.gatewayPid();
      } catch {
        // Not forked yet, or gone with its terminal.
      }
      for (const target of [pid, terminal.pid])
        try {
          if (target) process.kill(target, 'SIGKILL');
        } catch {
          // Already gone.
        }
    },
  };
}
