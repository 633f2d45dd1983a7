// Builds the gateway for `npm start`, the CLI and the Docker image: every
// TypeScript file of apps/gateway and libs/ compiled by SWC into dist/ with the
// same layout, `@quitanda/*` aliases rewritten to relative requires. No
// bundler: node_modules stay external, so PGlite finds its WebAssembly files.
// Type checking is `nx typecheck`'s job, not the build's.
const {
  copyFileSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const { dirname, join, relative } = require('node:path');
const { transformFileSync } = require('@swc/core');
const { buildInfo } = require('./build-info');

const root = join(__dirname, '../..');
const outDir = join(root, 'dist');
const sources = [join(root, 'apps/gateway/src'), join(root, 'libs')];
const skip =
  /(\.spec\.ts|\.int-spec\.ts|\.e2e-spec\.ts|\.d\.ts)$|\/src\/testing\//;

const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
const { compilerOptions } = JSON.parse(
  readFileSync(join(root, 'tsconfig.base.json'), 'utf8'),
);
swcrc.jsc.baseUrl = root;
swcrc.jsc.paths = compilerOptions.paths;

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

rmSync(outDir, { recursive: true, force: true });
let count = 0;
for (const source of sources) {
  for (const file of typescriptFiles(source)) {
    const target = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    const { code, map } = transformFileSync(file, {
      ...swcrc,
      swcrc: false,
      filename: file,
      sourceFileName: relative(dirname(target), file),
    });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(
      target,
      `${code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`,
    );
    if (map) writeFileSync(`${target}.map`, map);
    count += 1;
  }
}
for (const source of sources) {
  for (const file of assetFiles(source)) {
    const target = join(outDir, relative(root, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
    count += 1;
  }
}
// Read at run time by apps/gateway/src/app/version/build-info.ts.
writeFileSync(
  join(outDir, 'build-info.json'),
  `${JSON.stringify(buildInfo(root))}\n`,
);
console.log(`Built ${count} files into ${relative(root, outDir)}/`);
