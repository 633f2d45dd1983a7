import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The produce Flex service (kinvey-flex-sdk 3.3.0) in its own Node process,
 * as an External Flex service runs; resolves once it listens on `port`
 * with `secret` as its shared secret.
 */
export async function startFlexService(
  port: number,
  secret: string,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [join(__dirname, 'produce-flex-service.js')],
    {
      env: {
        ...process.env,
        FLEX_PORT: String(port),
        FLEX_SECRET: secret,
        NODE_OPTIONS: '',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const stdout = child.stdout as NodeJS.ReadableStream;
  for await (const line of createInterface({ input: stdout }))
    if (line === 'flex service listening') {
      // Its later lines are read and dropped, so it never blocks on a full pipe.
      stdout.resume();
      return child;
    }
  throw new Error('the Flex service exited before it listened');
}

/** Ends the service started by `startFlexService`, if it still runs. */
export async function stopFlexService(child?: ChildProcess): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
