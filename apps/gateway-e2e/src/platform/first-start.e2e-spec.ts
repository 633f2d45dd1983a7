import {
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { runMain } from '../support/gateway-process';

/** What a person sees on a terminal at the default level. */
function screen(lines: ReadonlyArray<Record<string, unknown>>) {
  return lines.filter((line) => Number(line['level']) >= 30);
}

describe('first start, as a new user runs it (e2e)', () => {
  let cwd: string;

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'quitanda-first-start-'));
  });

  afterAll(() => rm(cwd, { recursive: true, force: true }));

  it('shows the URLs and how to sign in on one screen, and no secret; keeps DATA_DIR owner-only', async () => {
    const answers: Record<string, number> = {};
    // No variable but the listen address: the embedded database under ./.data.
    const run = await runMain(
      {},
      async (url) => {
        for (const path of ['/docs', '/openapi.json', '/users/sign_in'])
          answers[path] = (await fetch(`${url}${path}`)).status;
      },
      cwd,
    );
    expect(run.code).toBe(0);
    expect(answers).toEqual({
      '/docs': 200,
      '/openapi.json': 200,
      '/users/sign_in': 200,
    });

    const shown = screen(run.lines);
    const startUp = shown.filter(
      (line) => !line['reqId'] && !line['signal'] && line['msg'] !== 'Stopped',
    );
    // Migrations, listening, sign-in. Route mapping and the like are debug.
    expect(startUp.map((line) => line['msg'])).toEqual([
      'Applied migrations',
      'Quitanda is listening',
      expect.stringContaining('Credentials are in'),
    ]);
    for (const line of run.lines) expect(typeof line['msg']).toBe('string');
    expect(shown.some((line) => line['context'] === 'RouterExplorer')).toBe(
      false,
    );

    const listening = shown.find(
      (line) => line['msg'] === 'Quitanda is listening',
    );
    const url = String(listening?.['url']);
    expect(listening).toMatchObject({
      docs: `${url}/docs`,
      ui: `${url}/`,
      database: `embedded PGlite in ${join(cwd, '.data')}`,
    });

    const file = join(cwd, '.data', 'initial-credentials.json');
    const credentials = JSON.parse(await readFile(file, 'utf8'));
    const signIn = shown.find((line) => line['credentials'] === file);
    expect(signIn).toMatchObject({
      ui_username: 'root',
      app_key: credentials.marketplace.app_key,
    });
    expect(signIn?.['msg']).toContain(file);
    expect(signIn?.['msg']).toContain('sign in as root');
    expect(signIn?.['msg']).toContain(credentials.marketplace.app_key);
    for (const secret of [
      credentials['error-tracking'].root_password,
      credentials['error-tracking'].root_token,
      credentials.marketplace.app_secret,
      credentials.marketplace.master_secret,
    ])
      expect(run.stdout).not.toContain(secret);

    // The database files, the credentials and the socket: the owner's only.
    const dataDir = join(cwd, '.data');
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    const open: string[] = [];
    for (const entry of await readdir(dataDir, { recursive: true })) {
      const mode = (await stat(join(dataDir, entry))).mode & 0o777;
      if (mode & 0o077) open.push(`${entry} ${mode.toString(8)}`);
    }
    expect(open).toEqual([]);
  }, 120_000);

  describe('.env in the working directory', () => {
    let database: TestDatabase;
    let dir: string;

    beforeAll(async () => {
      database = await openTestDatabase();
      dir = await mkdtemp(join(tmpdir(), 'quitanda-dotenv-'));
    });

    afterAll(async () => {
      await database?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('is read, and the process environment wins over it', async () => {
      await writeFile(
        join(dir, '.env'),
        [
          '# an operator’s settings',
          'CONTEXTS=events',
          'LOG_LEVEL=debug',
          'PORT=1',
          `DATA_DIR=${join(dir, 'from-dotenv')}`,
        ].join('\n'),
      );
      let events = 0;
      const run = await runMain(
        {
          DATABASE_URL: database.url,
          MIGRATIONS: 'off',
          LOG_LEVEL: 'info',
          DB_POOL_SIZE: '2',
        },
        async (url) => {
          events = (await fetch(`${url}/events`)).status;
        },
        dir,
      );
      expect(run.code).toBe(0);
      expect(events).toBe(200);
      expect(run.lines[0]).toMatchObject({
        msg: 'Read settings from .env',
        file: join(dir, '.env'),
      });
      const listening = run.lines.find(
        (line) => line['msg'] === 'Quitanda is listening',
      );
      // CONTEXTS from the file; PORT and LOG_LEVEL from the environment.
      expect(listening?.['contexts']).toEqual(['events']);
      expect(String(listening?.['url'])).not.toMatch(/:1$/);
      expect(run.lines.some((line) => line['level'] === 20)).toBe(false);
    });

    it('stops boot with a clear message when a value in it is bad', async () => {
      await writeFile(join(dir, '.env'), 'MIGRATIONS=sometimes\n');
      const run = await runMain({ DATABASE_URL: database.url }, undefined, dir);
      expect(run.code).toBe(78);
      expect(run.lines.at(-1)?.['msg']).toContain('MIGRATIONS');
    });
  });
});
