import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { migrationTargets } from '@quitanda/gateway';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { spawnMain } from '../support/main-process';
import { spawnMainOnTerminal } from '../support/terminal-process';
import type { TerminalGateway } from '../support/terminal-process';

jest.setTimeout(180_000);

/** Standard output of a piped `main.ts`, line by line, and its exit. */
function piped(child: ChildProcess) {
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
  const until = async (pattern: RegExp) => {
    const deadline = Date.now() + 90_000;
    while (!pattern.test(stdout)) {
      if (child.exitCode !== null) throw new Error(`exited:\n${stdout}`);
      if (Date.now() > deadline) throw new Error(`no ${pattern}:\n${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { stdout: () => stdout, exited, until };
}

describe('the first screen a person reads (e2e)', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  let terminal: TerminalGateway | undefined;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    database = await openTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'quitanda-first-screen-'));
    env = { DATABASE_URL: database.url, DATA_DIR: dataDir, MIGRATIONS: 'off' };
  });

  afterEach(() => {
    terminal?.kill();
    child?.kill('SIGKILL');
    terminal = child = undefined;
  });

  afterAll(async () => {
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('on a terminal is a short banner and readable lines; SIGTERM right after it stops the gateway with exit 0', async () => {
    terminal = spawnMainOnTerminal(env);
    await terminal.waitFor(/Stopping: Ctrl\+C.*\n/);
    process.kill(terminal.gatewayPid(), 'SIGTERM');
    expect(await terminal.exited).toBe(0);

    const screen = terminal.screen();
    expect(screen).not.toMatch(/^\{/m);
    expect(screen).toMatch(/Quitanda \S+ is ready/);
    expect(screen).toMatch(/^ {2}API {6}http:\/\/127\.0\.0\.1:\d+$/m);
    expect(screen).toMatch(/^ {2}Docs {5}http:\/\/127\.0\.0\.1:\d+\/docs$/m);
    expect(screen).toMatch(/^ {2}Web UI {3}http:\/\/127\.0\.0\.1:\d+\/$/m);
    expect(screen).toMatch(/^ {2}Database {1}PostgreSQL \(DATABASE_URL\)$/m);
    expect(screen).toMatch(
      /^ {2}Mail {5}account mail off until PUBLIC_BASE_URL is set$/m,
    );
    expect(screen).toContain(
      `Sign-in  credentials are in ${join(dataDir, 'initial-credentials.json')}`,
    );
    expect(screen).toMatch(/^\[\d\d:\d\d:\d\d\] INFO.*: Shutting down/m);
    expect(screen).toMatch(/^\[\d\d:\d\d:\d\d\] INFO.*: Stopped$/m);
  });

  it('on a new install starts with the banner, then one line for the migrations and one per request', async () => {
    // No DATABASE_URL: the embedded database, created and migrated by this
    // start, as on a person's first `npm start`.
    const fresh = await mkdtemp(join(tmpdir(), 'quitanda-first-screen-new-'));
    try {
      terminal = spawnMainOnTerminal({ DATA_DIR: fresh });
      await terminal.waitFor(/Stopping: Ctrl\+C.*\n/);
      const api = /^ {2}API {6}(\S+)$/m.exec(terminal.screen())?.[1];
      expect((await fetch(`${api}/version`)).status).toBe(200);
      expect((await fetch(`${api}/no/such/page`)).status).toBe(404);
      await terminal.waitFor(/GET \/no\/such\/page 404 \d+ ms\n/);
      process.kill(terminal.gatewayPid(), 'SIGTERM');
      expect(await terminal.exited).toBe(0);

      const lines = terminal.screen().split('\n');
      const time = String.raw`\[\d\d:\d\d:\d\d\] INFO: `;
      expect(lines[0]).toMatch(new RegExp(`^${time}Quitanda \\S+ is ready$`));
      const migrations = migrationTargets().reduce(
        (sum, target) =>
          sum + Object.values(target('postgres://x/y').migrations ?? {}).length,
        0,
      );
      expect(lines.filter((line) => /migration/i.test(line))).toEqual([
        expect.stringMatching(
          new RegExp(`^${time}Applied ${migrations} migrations$`),
        ),
      ]);
      expect(
        lines.findIndex((line) => line.includes('Applied')),
      ).toBeGreaterThan(
        lines.findIndex((line) => line.includes('Stopping: Ctrl+C')),
      );
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            new RegExp(`^${time}GET /version 200 \\d+ ms$`),
          ),
          expect.stringMatching(
            new RegExp(`^${time}GET /no/such/page 404 \\d+ ms$`),
          ),
        ]),
      );
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('on a terminal with LOG_FORMAT=json is JSON lines', async () => {
    terminal = spawnMainOnTerminal({ ...env, LOG_FORMAT: 'json' });
    await terminal.waitFor(/"msg":"Quitanda is listening"/);
    process.kill(terminal.gatewayPid(), 'SIGTERM');
    expect(await terminal.exited).toBe(0);
    const lines = terminal.screen().trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(
      expect.arrayContaining(['Quitanda is listening', 'Stopped']),
    );
  });

  it('piped is JSON lines', async () => {
    child = spawnMain(env, ['ignore', 'pipe', 'inherit']);
    const run = piped(child);
    await run.until(/"msg":"Quitanda is listening"/);
    child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const lines = run.stdout().trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(
      expect.arrayContaining(['Quitanda is listening', 'Stopped']),
    );
  });

  it('answers a SIGTERM received while booting once up: it stops, exit 0', async () => {
    // A .env makes the gateway print a line before it boots (readable lines
    // are written at once): the moment to signal it.
    const cwd = await mkdtemp(join(tmpdir(), 'quitanda-first-screen-cwd-'));
    try {
      await writeFile(join(cwd, '.env'), 'LOG_LEVEL=info\n');
      terminal = spawnMainOnTerminal(env, cwd);
      await terminal.waitFor(/Read settings from \.env/);
      process.kill(terminal.gatewayPid(), 'SIGTERM');
      expect(await terminal.exited).toBe(0);
      const screen = terminal.screen();
      expect(screen).toMatch(/Quitanda \S+ is ready/);
      expect(screen.indexOf('Shutting down')).toBeGreaterThan(
        screen.indexOf('is ready'),
      );
      expect(screen).toMatch(/INFO.*: Stopped$/m);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
