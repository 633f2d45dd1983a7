// `npm run cli -- <command> [options]`: builds the gateway if needed (quietly,
// through Nx's cache), then runs the operator CLI with the given arguments.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '../..');
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
const cli = spawnSync(
  process.execPath,
  [
    '--enable-source-maps',
    join(root, 'dist/apps/gateway/src/cli.js'),
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(cli.status ?? 1);
