module.exports = {
  displayName: 'events',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  globalSetup: '<rootDir>/src/testing/events.global-setup.ts',
  globalTeardown: '<rootDir>/src/testing/events.global-teardown.ts',
};
