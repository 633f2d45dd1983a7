// `npm run cli -- <command> [options]`: builds the gateway if a source changed
// since the last build (quietly, through Nx's cache), then runs the operator
// CLI with the given arguments.
const { spawnSync } = require('node:child_process');
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '../..');
const built = join(root, 'dist/build-info.json');

/** Newest modification time under `dir` (skipping node_modules). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    latest = Math.max(
      latest,
      entry.isDirectory() ? newest(path) : statSync(path).mtimeMs,
    );
  }
  return latest;
}

/**
 * Asking Nx costs a second or more (it hashes the workspace); a look at the
 * sources' modification times costs milliseconds, so Nx is asked only when
 * something may have changed since dist/ was written.
 */
function upToDate() {
  try {
    const builtAt = statSync(built).mtimeMs;
    return [
      'apps/gateway',
      'libs',
      'tools/build',
      'package.json',
      'tsconfig.base.json',
    ].every((path) => {
      const full = join(root, path);
      const latest = statSync(full).isDirectory()
        ? newest(full)
        : statSync(full).mtimeMs;
      return latest < builtAt;
    });
  } catch {
    return false;
  }
}

if (!upToDate()) {
  const build = spawnSync(
    process.execPath,
    [
      require.resolve('nx/bin/nx.js'),
      'run',
      'gateway:build',
      '--output-style=static',
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, NX_TUI: 'false' } },
  );
  if (build.status !== 0) {
    process.stderr.write(build.stdout + build.stderr);
    process.exit(build.status ?? 1);
  }
}
const cli = spawnSync(
  process.execPath,
  // No --enable-source-maps: it reads every module's map at load, and the
  // CLI prints messages, not stacks.
  [join(root, 'dist/apps/gateway/src/cli.js'), ...process.argv.slice(2)],
  { cwd: process.cwd(), stdio: 'inherit' },
);
process.exit(cli.status ?? 1);
