/**
 * What the code under test writes to stdout (CLI commands print their
 * results there), collected per test and restored after each.
 */
export function captureStdout(): { text(): string; clear(): void } {
  let chunks: string[] = [];
  beforeEach(() => {
    chunks = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      chunks.push(String(chunk));
      return true;
    });
  });
  afterEach(() => jest.restoreAllMocks());
  return {
    text: () => chunks.join(''),
    clear: () => {
      chunks = [];
    },
  };
}
