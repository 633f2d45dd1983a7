module.exports = {
  displayName: 'http',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
};
