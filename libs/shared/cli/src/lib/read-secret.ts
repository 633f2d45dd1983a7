import type { Readable, Writable } from 'node:stream';

/** Standard input as the CLI sees it: a terminal can turn echo off. */
export type SecretInput = Readable & {
  readonly isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
};

const MAX_SECRET_BYTES = 64 * 1024;

/**
 * A secret for an operator command (a password), never from the command
 * line, where `ps` and the shell history would keep it: typed at a prompt
 * with echo off when standard input is a terminal (asked twice, to catch a
 * typo), else the first line of standard input (`printf '%s\n' "$PW" | ...`).
 */
export async function readSecret(
  prompt: string,
  input: SecretInput = process.stdin,
  output: Writable = process.stderr,
): Promise<string> {
  if (!input.isTTY || !input.setRawMode) {
    const secret = await firstLine(input);
    if (!secret) throw new Error(`${prompt}: nothing on standard input`);
    return secret;
  }
  const secret = await typed(`${prompt}: `, input, output);
  const again = await typed(`${prompt} (again): `, input, output);
  if (secret !== again) throw new Error(`${prompt}: the two entries differ`);
  if (!secret) throw new Error(`${prompt}: nothing was typed`);
  return secret;
}

async function firstLine(input: Readable): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : String(chunk);
    const end = text.indexOf('\n');
    if (end >= 0) return text.slice(0, end).replace(/\r$/, '');
    if (text.length > MAX_SECRET_BYTES)
      throw new Error('Standard input: the first line is too long');
  }
  return text.replace(/\r$/, '');
}

/** One line typed with echo off; Ctrl-C cancels. */
function typed(
  prompt: string,
  input: SecretInput,
  output: Writable,
): Promise<string> {
  output.write(prompt);
  input.setRawMode?.(true);
  input.setEncoding('utf8');
  input.resume();
  let value = '';
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish();
          return;
        }
        if (char === '\u0003') {
          finish(new Error('Cancelled'));
          return;
        }
        if (char === '\u007f' || char === '\b')
          value = Array.from(value).slice(0, -1).join('');
        else value += char;
      }
    };
    input.on('data', onData);
  });
}

/**
 * Refuses positional arguments of a command that reads a password, so a
 * password typed after the options is never taken (nor left in `ps`).
 */
export function refuseSecretArguments(args: readonly string[]): void {
  if (args.length > 0)
    throw new Error(
      `Unexpected argument "${args[0]}": passwords are read from a prompt or standard input, never from the command line`,
    );
}
