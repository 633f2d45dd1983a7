// `npm run test:faults`: the fault scenarios of docs/reliability.md. Each
// runs real gateway processes over a private PostgreSQL cluster it creates
// (never the shared server), one file at a time.
module.exports = {
  displayName: 'faults',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/src/support/crash-guard.setup.ts'],
  testMatch: ['<rootDir>/src/faults/**/*.fault-spec.ts'],
  testTimeout: 180_000,
};
