// `npm run cli -- <command> [options]`: builds the gateway if a source changed
// since the last build (quietly, through Nx's cache), then runs the operator
// CLI with the given arguments.
const { spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const { DIGEST_FILE, inputsDigest } = require('../build/build-inputs');

const root = join(__dirname, '../..');

/**
 * Asking Nx costs a second or more (it hashes the workspace); the digest of
 * what the build reads costs milliseconds, so Nx is asked only when dist/
 * was built from other sources than these (or is not there).
 */
function upToDate() {
  try {
    return (
      readFileSync(join(root, DIGEST_FILE), 'utf8').trim() ===
      inputsDigest(root)
    );
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
