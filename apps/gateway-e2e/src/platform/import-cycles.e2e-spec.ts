import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { ROOT } from '../support/gateway-process';

/**
 * The lint step that keeps feature folders one-way (`.dependency-cruiser.cjs`,
 * run by every project's `lint`) would pass silently if its rules stopped
 * matching: here the repository's own config is run on small trees laid out
 * as a library is, one with each kind of cycle and one without.
 */

const DEPCRUISE = join(
  ROOT,
  'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
);

// Each case starts a dependency-cruiser process (about a second).
jest.setTimeout(60_000);

type Tree = Record<string, string>;

interface Verdict {
  readonly failed: boolean;
  readonly report: string;
}

async function cruise(tree: Tree): Promise<Verdict> {
  const work = await mkdtemp(join(tmpdir(), 'cycles-'));
  try {
    // The config resolves imports through the workspace's tsconfig.
    await writeFile(join(work, 'tsconfig.base.json'), '{}');
    for (const [path, text] of Object.entries(tree)) {
      await mkdir(dirname(join(work, path)), { recursive: true });
      await writeFile(join(work, path), text);
    }
    return await new Promise<Verdict>((resolve) =>
      execFile(
        process.execPath,
        [
          DEPCRUISE,
          '--config',
          join(ROOT, '.dependency-cruiser.cjs'),
          '--output-type',
          'err',
          'libs',
        ],
        { cwd: work },
        (error, stdout, stderr) =>
          resolve({ failed: error !== null, report: `${stdout}${stderr}` }),
      ),
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const LIB = 'libs/demo/src/lib';

describe('the import-cycle check (lint)', () => {
  it('passes folders that depend one way', async () => {
    const verdict = await cruise({
      [`${LIB}/kinvey/doc.ts`]: `export const doc = 1;\n`,
      [`${LIB}/records/records.ts`]: `import { doc } from '../kinvey/doc';\nexport const records = doc;\n`,
      [`${LIB}/records/records.spec.ts`]: `import { records } from './records';\nexport const spec = records;\n`,
    });
    expect(verdict).toEqual({ failed: false, report: expect.any(String) });
  });

  it('fails on two folders that import each other through different files', async () => {
    const verdict = await cruise({
      [`${LIB}/users/user.ts`]: `import { session } from '../auth/session';\nexport const user = session;\n`,
      [`${LIB}/users/name.ts`]: `export const name = 'n';\n`,
      [`${LIB}/auth/session.ts`]: `export const session = 1;\n`,
      [`${LIB}/auth/login.ts`]: `import { name } from '../users/name';\nexport const login = name;\n`,
    });
    expect(verdict.failed).toBe(true);
    expect(verdict.report).toContain('no-folder-cycle');
    expect(verdict.report).not.toContain('no-file-cycle');
  });

  it('fails on two files that import each other', async () => {
    const verdict = await cruise({
      [`${LIB}/files/a.ts`]: `import { b } from './b';\nexport const a = (): number => b();\n`,
      [`${LIB}/files/b.ts`]: `import { a } from './a';\nexport const b = (): number => a();\n`,
    });
    expect(verdict.failed).toBe(true);
    expect(verdict.report).toContain('no-file-cycle');
  });

  it('does not count a spec importing across folders', async () => {
    const verdict = await cruise({
      [`${LIB}/kinvey/doc.ts`]: `export const doc = 1;\n`,
      [`${LIB}/kinvey/doc.spec.ts`]: `import { records } from '../records/records';\nexport const spec = records;\n`,
      [`${LIB}/records/records.ts`]: `import { doc } from '../kinvey/doc';\nexport const records = doc;\n`,
    });
    expect(verdict.failed).toBe(false);
  });
});
