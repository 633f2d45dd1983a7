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

import { backup, portable } from './backup';

describe('portable (a newer pg_dump made restorable into PostgreSQL 15)', () => {
  it('drops what PostgreSQL 15 refuses from the preamble and the end, and nothing from the data', () => {
    const dump = [
      '\\restrict abc123',
      'SET statement_timeout = 0;',
      'SET transaction_timeout = 0;',
      'CREATE SCHEMA events;',
      "INSERT INTO events.events VALUES (1, 'SET transaction_timeout = 0;",
      "\\restrict not-a-guard');",
      "INSERT INTO events.events VALUES (2, 'x');",
      "INSERT INTO events.events VALUES (3, 'y');",
      "INSERT INTO events.events VALUES (4, 'z');",
      "INSERT INTO events.events VALUES (5, 'w');",
      '',
      '\\unrestrict abc123',
      '',
    ].join('\n');
    expect(portable(dump).split('\n')).toEqual([
      'SET statement_timeout = 0;',
      'CREATE SCHEMA events;',
      "INSERT INTO events.events VALUES (1, 'SET transaction_timeout = 0;",
      "\\restrict not-a-guard');",
      "INSERT INTO events.events VALUES (2, 'x');",
      "INSERT INTO events.events VALUES (3, 'y');",
      "INSERT INTO events.events VALUES (4, 'z');",
      "INSERT INTO events.events VALUES (5, 'w');",
      '',
      '',
    ]);
  });
});

describe('backup file', () => {
  let dir: string;
  const database = {
    url: 'postgres://embedded/template1',
    kind: 'embedded' as const,
    pgDump: async () => '-- PostgreSQL database dump\nCREATE SCHEMA events;\n',
    close: async () => undefined,
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quitanda-backup-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is owner-only (0600) even when it replaces a file readable by others', async () => {
    const file = join(dir, 'backup.sql');
    await writeFile(file, 'old bytes', { mode: 0o644 });
    await backup(database, file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain('CREATE SCHEMA events;');
    expect(await readdir(dir)).toEqual(['backup.sql']);
  });

  it('is owner-only (0600) when new', async () => {
    const file = join(dir, 'new.sql');
    await backup(database, file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
