module.exports = {
  displayName: 'gateway-e2e',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/src/support/crash-guard.setup.ts'],
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/src/support/global-setup.ts',
  globalTeardown: '<rootDir>/src/support/global-teardown.ts',
};
