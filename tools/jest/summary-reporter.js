// Appends one JSON line per Jest run ({project, passed, failed, failures}) to
// the file named by QUITANDA_TEST_SUMMARY, so .ci/run can total every
// project's tests and name the failed ones last, where a truncated log keeps
// them.
const { appendFileSync } = require('node:fs');

class SummaryReporter {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
  }

  onRunComplete(_contexts, results) {
    const target = process.env.QUITANDA_TEST_SUMMARY;
    if (!target) return;
    const failures = [];
    for (const file of results.testResults) {
      if (file.testExecError)
        failures.push(
          `${file.testFilePath}: ${firstLine(file.testExecError.message)}`,
        );
      for (const test of file.testResults)
        if (test.status === 'failed')
          failures.push(
            `${file.testFilePath} > ${test.fullName}: ${firstLine(test.failureMessages[0])}`,
          );
    }
    const line = {
      project: this.globalConfig.rootDir,
      passed: results.numPassedTests,
      failed:
        results.numFailedTests +
        results.numRuntimeErrorTestSuites +
        (results.numFailedTestSuites > 0 && results.numFailedTests === 0
          ? results.numFailedTestSuites
          : 0),
      failures,
    };
    appendFileSync(target, `${JSON.stringify(line)}\n`);
  }
}

/** The message's first line that says something (colour codes dropped). */
function firstLine(message = '') {
  const plain = String(message).replace(/\u001b\[[0-9;]*m/g, '');
  const line = plain.split('\n').find((text) => text.trim() !== '') ?? '';
  return line.trim().slice(0, 300);
}

module.exports = SummaryReporter;
