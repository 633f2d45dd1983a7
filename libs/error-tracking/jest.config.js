module.exports = {
  displayName: 'error-tracking',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  globalSetup: '<rootDir>/src/testing/error-tracking.global-setup.ts',
  globalTeardown: '<rootDir>/src/testing/error-tracking.global-teardown.ts',
};
