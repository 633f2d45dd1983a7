import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { recordInitialCredentials } from './initial-credentials';

describe('initial credentials', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'quitanda-creds-'));
  });

  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('writes them owner-only, keeping what an earlier boot recorded', async () => {
    const path = join(dataDir, 'initial-credentials.json');
    await writeFile(
      path,
      JSON.stringify({ marketplace: { appKey: 'kid_old' } }),
      { mode: 0o644 },
    );
    await recordInitialCredentials(dataDir, {
      generated: { 'error-tracking': { rootToken: 'glpat-x' } },
      retired: {},
    });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      marketplace: { appKey: 'kid_old' },
      'error-tracking': { rootToken: 'glpat-x' },
    });
  });

  it('removes what no longer works, and the file once nothing in it does', async () => {
    const path = join(dataDir, 'initial-credentials.json');
    await writeFile(
      path,
      JSON.stringify({
        marketplace: { app_key: 'kid_x' },
        'error-tracking': { root_username: 'root', root_password: 'p' },
      }),
      { mode: 0o600 },
    );
    const retired = {
      'error-tracking': ['root_username', 'root_password'],
    };
    await recordInitialCredentials(dataDir, { generated: {}, retired });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      marketplace: { app_key: 'kid_x' },
    });
    await recordInitialCredentials(dataDir, {
      generated: {},
      retired: { ...retired, marketplace: ['app_key'] },
    });
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('creates no file when nothing was generated', async () => {
    await recordInitialCredentials(dataDir, {
      generated: {},
      retired: { 'error-tracking': ['root_password'] },
    });
    await expect(
      stat(join(dataDir, 'initial-credentials.json')),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
