import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import type { ErrorTrackingGateway } from './error-tracking-support';

const run = promisify(execFile);
/** The npm package's launcher; it runs the binary of `@sentry/cli-linux-x64`. */
const SENTRY_CLI = require.resolve('@sentry/cli/bin/sentry-cli');

/**
 * Runs the real sentry-cli against the gateway with `token`, in `cwd`
 * (also its HOME, so no user config is read); rejects on a non-zero exit
 * with the error's `stdout` and `stderr`. Returns stdout and stderr.
 */
export async function sentryCli(
  gw: ErrorTrackingGateway,
  token: string,
  cwd: string,
  args: string[],
): Promise<string> {
  const { stdout, stderr } = await run(
    process.execPath,
    [SENTRY_CLI, '--url', gw.url, '--auth-token', token, ...args],
    {
      cwd,
      timeout: 60_000,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: cwd,
        SENTRY_LOAD_DOTENV: '0',
        SENTRYCLI_SKIP_DOWNLOAD: '1',
      },
    },
  );
  return `${stdout}\n${stderr}`;
}
