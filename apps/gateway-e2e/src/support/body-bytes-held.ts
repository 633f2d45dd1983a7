import { BODY_BUDGET } from '@quitanda/http';

/**
 * Runs `work` and tells, with its result, the most request-body bytes held
 * at once meanwhile: the gateway under test runs in this process and takes
 * every byte it buffers from `BODY_BUDGET`.
 */
export async function mostBodyBytesHeld<T>(
  work: () => Promise<T>,
): Promise<{ result: T; mostHeld: number }> {
  const takeBytes = BODY_BUDGET.tryTake.bind(BODY_BUDGET);
  let mostHeld = 0;
  const take = jest
    .spyOn(BODY_BUDGET, 'tryTake')
    .mockImplementation((bytes) => {
      const taken = takeBytes(bytes);
      mostHeld = Math.max(mostHeld, BODY_BUDGET.usedBytes);
      return taken;
    });
  try {
    const result = await work();
    return { result, mostHeld };
  } finally {
    take.mockRestore();
  }
}
