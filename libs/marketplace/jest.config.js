module.exports = {
  displayName: 'marketplace',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  globalSetup: '<rootDir>/src/testing/marketplace.global-setup.ts',
  globalTeardown: '<rootDir>/src/testing/marketplace.global-teardown.ts',
};
