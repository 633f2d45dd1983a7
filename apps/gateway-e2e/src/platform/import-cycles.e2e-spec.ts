import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { ROOT } from '../support/gateway-process';

/**
 * The lint step that keeps feature folders one-way (`.dependency-cruiser.cjs`,
 * run by every project's `lint`) would pass silently if its rules stopped
 * matching: here the repository's own config is run on small trees laid out
 * as a library is, one with each kind of cycle and one without, and on
 * trees shaped like error tracking's layers with each kind of wrong import.
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

  it('fails on a folder importing a file at the library root', async () => {
    const verdict = await cruise({
      [`${LIB}/demo.module.ts`]: `import { records } from './records/records';\nexport const demo = records;\n`,
      [`${LIB}/demo.errors.ts`]: `export const notFound = 404;\n`,
      [`${LIB}/records/records.ts`]: `import { notFound } from '../demo.errors';\nexport const records = notFound;\n`,
    });
    expect(verdict.failed).toBe(true);
    expect(verdict.report).toContain('no-root-file-import');
    expect(verdict.report).not.toContain('no-folder-cycle');
  });
});

const ET = 'libs/error-tracking/src/lib';

/** One file per layer, each importing the one below: a well-formed tree. */
const LAYERED: Tree = {
  [`${ET}/common/errors.ts`]: `export const code = 1;\n`,
  [`${ET}/errors/errors.service.ts`]: `import { code } from '../common/errors';\nexport const service = code;\n`,
  [`${ET}/core/core.module.ts`]: `import { service } from '../errors/errors.service';\nexport const core = service;\n`,
  [`${ET}/api/errors.controller.ts`]: `import { core } from '../core/core.module';\nexport const api = core;\n`,
  [`${ET}/retention/retention.service.ts`]: `import { core } from '../core/core.module';\nexport const retention = core;\n`,
  [`${ET}/composition/root.module.ts`]: `import { api } from '../api/errors.controller';\nexport const root = api;\n`,
};

describe('the layer check of error tracking (lint)', () => {
  it('passes imports that run down, and an area import it lists', async () => {
    const verdict = await cruise({
      ...LAYERED,
      [`${ET}/cli/commands.ts`]: `import { retention } from '../retention/retention.service';\nexport const cli = retention;\n`,
    });
    expect(verdict).toEqual({ failed: false, report: expect.any(String) });
  });

  it('fails on the domain importing an area, where no cycle shows it', async () => {
    const verdict = await cruise({
      ...LAYERED,
      [`${ET}/sourcemaps/zip.ts`]: `import { code } from '../common/errors';\nexport const zip = code;\n`,
      [`${ET}/errors/bundle.ts`]: `import { zip } from '../sourcemaps/zip';\nexport const bundle = zip;\n`,
    });
    expect(verdict.failed).toBe(true);
    expect(verdict.report).toContain('layer-order');
    expect(verdict.report).not.toContain('cycle');
  });

  it('fails on the toolkit importing the domain', async () => {
    const verdict = await cruise({
      ...LAYERED,
      [`${ET}/http/params.ts`]: `import { service } from '../errors/errors.service';\nexport const params = service;\n`,
    });
    expect(verdict.failed).toBe(true);
    expect(verdict.report).toContain('layer-order');
  });

  it('fails on an area importing an area it does not list', async () => {
    const verdict = await cruise({
      ...LAYERED,
      [`${ET}/retention/api-link.ts`]: `import { api } from '../api/errors.controller';\nexport const link = api;\n`,
    });
    expect(verdict.failed).toBe(true);
    expect(verdict.report).toContain('area-to-area');
    expect(verdict.report).not.toContain('layer-order');
  });

  it('fails on a file outside the layers, at the root or in an unlisted folder', async () => {
    const atRoot = await cruise({
      ...LAYERED,
      [`${ET}/constants.ts`]: `export const prefix = '/api/v4';\n`,
      [`${ET}/common/paths.ts`]: `import { prefix } from '../constants';\nexport const paths = prefix;\n`,
    });
    expect(atRoot.failed).toBe(true);
    expect(atRoot.report).toContain('outside-layers');

    const unlisted = await cruise({
      ...LAYERED,
      [`${ET}/misc/helper.ts`]: `import { code } from '../common/errors';\nexport const helper = code;\n`,
    });
    expect(unlisted.failed).toBe(true);
    expect(unlisted.report).toContain('outside-layers');
  });
});
