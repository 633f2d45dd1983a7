// Appends one JSON line per Jest run ({project, passed, failed}) to the file
// named by QUITANDA_TEST_SUMMARY, so .ci/run can total every project's tests.
const { appendFileSync } = require('node:fs');

class SummaryReporter {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
  }

  onRunComplete(_contexts, results) {
    const target = process.env.QUITANDA_TEST_SUMMARY;
    if (!target) return;
    const line = {
      project: this.globalConfig.rootDir,
      passed: results.numPassedTests,
      failed:
        results.numFailedTests +
        results.numRuntimeErrorTestSuites +
        (results.numFailedTestSuites > 0 && results.numFailedTests === 0
          ? results.numFailedTestSuites
          : 0),
    };
    appendFileSync(target, `${JSON.stringify(line)}\n`);
  }
}

module.exports = SummaryReporter;
