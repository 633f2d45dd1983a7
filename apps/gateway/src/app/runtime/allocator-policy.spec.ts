import { MMAP_THRESHOLD_BYTES, workerAllocatorEnv } from './allocator-policy';

describe('workerAllocatorEnv', () => {
  it("fixes glibc's mmap threshold for the workers", () => {
    expect(workerAllocatorEnv({})).toEqual({
      MALLOC_MMAP_THRESHOLD_: String(MMAP_THRESHOLD_BYTES),
    });
  });

  it('adds nothing when the operator set the threshold', () => {
    expect(workerAllocatorEnv({ MALLOC_MMAP_THRESHOLD_: '131072' })).toEqual(
      {},
    );
  });
});
