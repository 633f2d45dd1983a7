module.exports = {
  displayName: 'database',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
};
