import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { spawnMain } from '../support/main-process';

jest.setTimeout(120_000);

/** Standard output of `main.ts` until `done` holds, then SIGTERM and exit. */
function firstScreen(
  env: Record<string, string>,
  done: (stdout: string) => boolean,
): Promise<{ stdout: string; code: number | null }> {
  const child = spawnMain(env, ['ignore', 'pipe', 'inherit']);
  let stdout = '';
  let stopping = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (!stopping && done(stdout)) {
      stopping = true;
      child.kill('SIGTERM');
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ stdout, code }));
  });
}

describe('the first screen a person reads (e2e)', () => {
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'quitanda-first-screen-'));
  });

  afterAll(async () => {
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is a short banner and readable lines, not JSON, with LOG_FORMAT=pretty (as on a terminal)', async () => {
    const run = await firstScreen(
      {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        MIGRATIONS: 'off',
        LOG_FORMAT: 'pretty',
      },
      (stdout) => stdout.includes('Stopping: Ctrl+C'),
    );
    expect(run.code).toBe(0);
    // eslint-disable-next-line no-control-regex
    const text = run.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(text).not.toMatch(/^\{/m);
    expect(text).toMatch(/Quitanda \S+ is ready/);
    expect(text).toMatch(/^ {2}API {6}http:\/\/127\.0\.0\.1:\d+$/m);
    expect(text).toMatch(/^ {2}Docs {5}http:\/\/127\.0\.0\.1:\d+\/docs$/m);
    expect(text).toMatch(/^ {2}Web UI {3}http:\/\/127\.0\.0\.1:\d+\/$/m);
    expect(text).toContain(
      `Sign-in  credentials are in ${join(dataDir, 'initial-credentials.json')}`,
    );
    expect(text).toMatch(/INFO.*Shutting down/);
  });
});
