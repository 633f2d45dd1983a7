import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { INestApplicationContext } from '@nestjs/common';

import type { ContextEntry } from '../contexts/context-catalog';
import {
  bootstrapContexts,
  recordInitialCredentials,
} from './initial-credentials';

describe('initial credentials', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'quitanda-creds-'));
  });

  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('collects what each context generated, skipping contexts that generated nothing', async () => {
    const entries = [
      {
        name: 'marketplace',
        bootstrap: async () => ({ appKey: 'kid_x', appSecret: 's' }),
      },
      { name: 'events' },
      { name: 'error-tracking', bootstrap: async () => undefined },
    ] as unknown as ContextEntry[];
    await expect(
      bootstrapContexts({} as INestApplicationContext, entries),
    ).resolves.toEqual({
      marketplace: { appKey: 'kid_x', appSecret: 's' },
    });
  });

  it('writes them owner-only, keeping what an earlier boot recorded', async () => {
    const path = join(dataDir, 'initial-credentials.json');
    await writeFile(
      path,
      JSON.stringify({ marketplace: { appKey: 'kid_old' } }),
      { mode: 0o644 },
    );
    await expect(
      recordInitialCredentials(dataDir, {
        'error-tracking': { rootToken: 'glpat-x' },
      }),
    ).resolves.toBe(path);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      marketplace: { appKey: 'kid_old' },
      'error-tracking': { rootToken: 'glpat-x' },
    });
  });
});
