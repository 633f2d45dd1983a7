// Runs before `npm test`: the browser suite needs Chromium and the GitLab
// client suite needs python-gitlab, neither of which npm installs. On Debian
// as root (CI, a fresh development VM) they are installed from Debian's
// packages; anywhere else the run stops at once, naming what is missing.
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');

const chromium = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** What the suites need: how to tell it is there, and its Debian package. */
const needs = [
  {
    what: `Chromium at ${chromium} (CHROMIUM_PATH to use another)`,
    present: () => existsSync(chromium),
    debianPackage: 'chromium',
  },
  {
    what: 'python-gitlab for /usr/bin/python3',
    present: () =>
      spawnSync('/usr/bin/python3', ['-c', 'import gitlab'], {
        stdio: 'ignore',
      }).status === 0,
    debianPackage: 'python3-gitlab',
  },
];

function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

const missing = needs.filter((need) => !need.present());
if (missing.length === 0) process.exit(0);

const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
if (canInstall) {
  const packages = missing.map((need) => need.debianPackage);
  console.log(`Installing ${packages.join(', ')} from Debian's packages ...`);
  if (
    run('apt-get', ['update', '-qq']) &&
    run('apt-get', ['install', '-y', '-qq', ...packages])
  ) {
    const still = missing.filter((need) => !need.present());
    if (still.length === 0) process.exit(0);
    missing.splice(0, missing.length, ...still);
  }
}

console.error('npm test needs, and could not find or install:');
for (const need of missing)
  console.error(
    `  - ${need.what} (Debian: apt-get install ${need.debianPackage})`,
  );
process.exit(1);
