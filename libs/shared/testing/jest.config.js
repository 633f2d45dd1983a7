module.exports = {
  displayName: 'testing',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  globalSetup: '<rootDir>/src/lib/testing.global-setup.ts',
  globalTeardown: '<rootDir>/src/lib/testing.global-teardown.ts',
};
