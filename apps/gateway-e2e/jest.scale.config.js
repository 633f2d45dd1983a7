// `npm run test:scale`: real PostgreSQL primary and replica, PgBouncer and two
// built gateways (see src/scale). Not part of `npm test`: it needs the build
// and Debian's packages, and .ci/run runs it on its own.
module.exports = {
  displayName: 'gateway-scale',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/src/support/crash-guard.setup.ts'],
  testMatch: ['<rootDir>/src/scale/**/*.scale-spec.ts'],
  testTimeout: 600_000,
};
