// Shared Jest setup for every project: SWC instead of ts-jest (no type
// checking at test time: `nx typecheck` does that once). SWC rewrites the
// `@quitanda/*` aliases of tsconfig.base.json into relative paths, which also
// works for global setup files that Jest loads outside its module system.
const { readFileSync } = require('node:fs');
const path = require('node:path');

const swcOptions = JSON.parse(
  readFileSync(path.join(__dirname, '.swcrc'), 'utf8'),
);
const { compilerOptions } = JSON.parse(
  readFileSync(path.join(__dirname, 'tsconfig.base.json'), 'utf8'),
);

swcOptions.jsc.baseUrl = __dirname;
swcOptions.jsc.paths = compilerOptions.paths;

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', { ...swcOptions, swcrc: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.int-spec.ts'],
  reporters: [
    'default',
    path.join(__dirname, 'tools/jest/summary-reporter.js'),
  ],
  // Integration specs start a database per file; give them room on a slow CI.
  testTimeout: 30_000,
};
