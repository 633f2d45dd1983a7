// The version and commit a build reports (`GET /version`, the
// `quitanda_build_info` metric, `npm run cli -- --version`): the version from
// package.json, the commit from GIT_COMMIT (a Docker build argument) or git,
// `unknown` when neither is there.
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

function buildInfo(root) {
  const { version } = JSON.parse(
    readFileSync(join(root, 'package.json'), 'utf8'),
  );
  let commit = process.env.GIT_COMMIT;
  if (!commit) {
    try {
      commit = execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      commit = 'unknown';
    }
  }
  return { version, commit };
}

module.exports = { buildInfo };
