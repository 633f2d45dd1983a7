module.exports = {
  displayName: 'kernel',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
};
