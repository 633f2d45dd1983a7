import { recordInProcessCrashes, takeCrashReports } from './crash-watch';

// A gateway under test that logged an unhandled rejection or an uncaught
// exception fails the file, even when its requests all looked fine; so does
// one in this process (an in-process gateway) that came between tests.
const stopRecording = recordInProcessCrashes();

afterAll(() => {
  stopRecording();
  const reports = takeCrashReports();
  if (reports.length > 0)
    throw new Error(
      `A gateway under test crashed on a failure nothing handled:\n\n${reports.join('\n\n')}`,
    );
});
