import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFile,
  cp,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  utimes,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ROOT } from '../support/gateway-process';

/** What a checkout holds that the build and `npm run cli` read. */
const CHECKOUT = [
  'apps/gateway',
  'libs',
  'tools',
  'package.json',
  'tsconfig.base.json',
  '.swcrc',
  'nx.json',
];

/** `npm run cli -- <args>` in the checkout `root`. */
function npmRunCli(root: string, args: readonly string[]) {
  const run = spawnSync(
    process.execPath,
    [join(root, 'tools/scripts/run-cli.js'), ...args],
    { cwd: root, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } },
  );
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

// Builds a copy of the workspace (and, once, through Nx).
jest.setTimeout(180_000);

describe('npm run cli in a built checkout (e2e)', () => {
  let root: string;
  let version: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'quitanda-checkout-'));
    for (const part of CHECKOUT)
      await cp(join(ROOT, part), join(root, part), { recursive: true });
    await symlink(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    // The build `npm start` runs before it starts the gateway.
    execFileSync(process.execPath, ['tools/build/build-gateway.js'], {
      cwd: root,
      stdio: 'ignore',
    });
    ({ version } = JSON.parse(
      await readFile(join(root, 'package.json'), 'utf8'),
    ) as { version: string });
  });

  afterAll(() => rm(root, { recursive: true, force: true }));

  it('runs the build it has when the sources only look newer (a checkout, a copy, an unpacked archive)', async () => {
    const later = new Date(Date.now() + 3_600_000);
    for (const part of CHECKOUT) {
      const files = (await stat(join(root, part))).isDirectory()
        ? (await readdir(join(root, part), { recursive: true })).map((file) =>
            join(part, file),
          )
        : [part];
      for (const file of files) await utimes(join(root, file), later, later);
    }
    const built = await stat(join(root, 'dist/build-info.json'));

    expect(npmRunCli(root, ['--version'])).toEqual({
      code: 0,
      stderr: '',
      stdout: `quitanda ${version} (commit unknown)\n`,
    });
    expect((await stat(join(root, 'dist/build-info.json'))).mtimeMs).toBe(
      built.mtimeMs,
    );
  });

  it('rebuilds first when a source changed', async () => {
    await appendFile(
      join(root, 'apps/gateway/src/cli.ts'),
      '\nexport const changedSinceTheBuild = true;\n',
    );
    expect(npmRunCli(root, ['--version'])).toMatchObject({
      code: 0,
      stdout: `quitanda ${version} (commit unknown)\n`,
    });
    expect(
      await readFile(join(root, 'dist/apps/gateway/src/cli.js'), 'utf8'),
    ).toContain('changedSinceTheBuild');
  });
});
