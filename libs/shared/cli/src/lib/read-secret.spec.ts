import { PassThrough } from 'node:stream';

import { readSecret } from './read-secret';

function terminal() {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    raw: [] as boolean[],
    setRawMode(raw: boolean) {
      this.raw.push(raw);
    },
  });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
  return { input, output, shown: () => shown };
}

describe('readSecret', () => {
  it('reads the first line of standard input when it is not a terminal', async () => {
    const input = new PassThrough();
    input.end('s3cret with spaces\r\nignored\n');
    await expect(readSecret('Password', input)).resolves.toBe(
      's3cret with spaces',
    );
  });

  it('refuses empty standard input', async () => {
    const input = new PassThrough();
    input.end('');
    await expect(readSecret('Password', input)).rejects.toThrow(
      'Password: nothing on standard input',
    );
  });

  it('prompts twice on a terminal with echo off, and never shows what was typed', async () => {
    const tty = terminal();
    const reading = readSecret('Password', tty.input, tty.output);
    tty.input.write('hunter2x');
    tty.input.write('\u007f2\r');
    await new Promise((resolve) => setImmediate(resolve));
    tty.input.write('hunter22\r');
    await expect(reading).resolves.toBe('hunter22');
    expect(tty.shown()).toBe('Password: \nPassword (again): \n');
    expect(tty.input.raw).toEqual([true, false, true, false]);
  });

  it('refuses two different entries, and Ctrl-C', async () => {
    const tty = terminal();
    const differing = readSecret('Password', tty.input, tty.output);
    tty.input.write('one\r');
    await new Promise((resolve) => setImmediate(resolve));
    tty.input.write('two\r');
    await expect(differing).rejects.toThrow('the two entries differ');
    const cancelled = readSecret('Password', tty.input, tty.output);
    tty.input.write('abc\u0003');
    await expect(cancelled).rejects.toThrow('Cancelled');
  });
});
