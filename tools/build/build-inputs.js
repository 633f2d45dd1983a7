// What the gateway build reads, and one digest of it. The build records the
// digest in dist/; `npm run cli` compares it with the sources' to tell
// whether dist/ is current. Contents, not modification times: a checkout,
// a copy or an unpacked archive dates every file anew without changing one.
const { createHash } = require('node:crypto');
const { readFileSync, readdirSync } = require('node:fs');
const { join, relative } = require('node:path');

const skip =
  /(\.spec\.ts|\.int-spec\.ts|\.e2e-spec\.ts|\.d\.ts)$|\/src\/testing\//;

/** The folders whose TypeScript (and `assets/`) the build compiles (copies). */
function sourceRoots(root) {
  return [join(root, 'apps/gateway/src'), join(root, 'libs')];
}

// Files the code reads at run time (the web UI's CSS and JS) live in
// `assets/` folders beside it and are copied as they are.
function* assetFiles(dir, inAssets = false) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules')
        yield* assetFiles(path, inAssets || entry.name === 'assets');
    } else if (inAssets) {
      yield path;
    }
  }
}

function* typescriptFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* typescriptFiles(path);
    } else if (entry.name.endsWith('.ts') && !skip.test(path)) {
      yield path;
    }
  }
}

/** sha256 of every file the build reads, by path and content. */
function inputsDigest(root) {
  const files = [
    ...sourceRoots(root).flatMap((dir) => [
      ...typescriptFiles(dir),
      ...assetFiles(dir),
    ]),
    ...readdirSync(join(root, 'tools/build')).map((name) =>
      join(root, 'tools/build', name),
    ),
    ...['package.json', 'tsconfig.base.json', '.swcrc'].map((name) =>
      join(root, name),
    ),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash.update(`${relative(root, file)}\0`).update(readFileSync(file));
  return hash.digest('hex');
}

/** Where the build records the digest of what it was built from. */
const DIGEST_FILE = 'dist/build-inputs.sha256';

module.exports = {
  DIGEST_FILE,
  assetFiles,
  inputsDigest,
  sourceRoots,
  typescriptFiles,
};
