// Builds the gateway for `npm start`, the CLI and the Docker image: every
// TypeScript file of apps/gateway and libs/ compiled by SWC into dist/ with the
// same layout, `@quitanda/*` aliases rewritten to relative requires. No
// bundler: node_modules stay external, so PGlite finds its WebAssembly files.
// Type checking is `nx typecheck`'s job, not the build's.
const {
  copyFileSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const { dirname, join, relative } = require('node:path');
const { transformFileSync } = require('@swc/core');
const { buildInfo } = require('./build-info');
const {
  DIGEST_FILE,
  assetFiles,
  inputsDigest,
  sourceRoots,
  typescriptFiles,
} = require('./build-inputs');

const root = join(__dirname, '../..');
const outDir = join(root, 'dist');
const sources = sourceRoots(root);
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
const { compilerOptions } = JSON.parse(
  readFileSync(join(root, 'tsconfig.base.json'), 'utf8'),
);
swcrc.jsc.baseUrl = root;
swcrc.jsc.paths = compilerOptions.paths;

// Taken before compiling: a file changed meanwhile makes the next check differ.
const digest = inputsDigest(root);

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
// Last: its presence says the build above finished.
writeFileSync(join(root, DIGEST_FILE), `${digest}\n`);
console.log(`Built ${count} files into ${relative(root, outDir)}/`);
