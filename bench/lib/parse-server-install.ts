import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Parse Server the contracts compare with, pinned. */
const PARSE_SERVER_VERSION = '9.10.0';

function installedVersion(dir: string): string | undefined {
  const manifest = join(dir, 'node_modules/parse-server/package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string })
    .version;
}

/**
 * A folder holding parse-server@9.10.0, installed once into npm's cache
 * folder inside `node_modules` (outside git, gone with `node_modules`).
 * Parse Server is not a dependency of Quitanda: it is large and runs
 * install scripts, so it never enters `package.json`.
 */
export function parseServerDir(root: string): string {
  const dir = join(root, 'node_modules/.cache/quitanda-bench/parse-server');
  if (installedVersion(dir) === PARSE_SERVER_VERSION) return dir;
  console.log(
    `Installing parse-server@${PARSE_SERVER_VERSION} into ${dir} (once; --no-parse skips Parse Server)...`,
  );
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'quitanda-bench-parse-server', private: true }, null, 2)}\n`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(
    npm,
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--save-exact',
      `parse-server@${PARSE_SERVER_VERSION}`,
    ],
    { cwd: dir, stdio: 'inherit' },
  );
  if (installedVersion(dir) !== PARSE_SERVER_VERSION)
    throw new Error(`parse-server@${PARSE_SERVER_VERSION} did not install`);
  return dir;
}
