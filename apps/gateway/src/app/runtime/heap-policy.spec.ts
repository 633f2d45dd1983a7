import { setFlagsFromString } from 'node:v8';

import {
  HEAP_GROWING_PERCENT,
  applyHeapPolicy,
  workerHeapFlags,
} from './heap-policy';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn() }));

describe('applyHeapPolicy', () => {
  beforeEach(() => jest.mocked(setFlagsFromString).mockClear());

  it('reads the command line and NODE_OPTIONS by default', () => {
    const saved = process.env['NODE_OPTIONS'];
    process.env['NODE_OPTIONS'] = '--max-old-space-size=1024';
    try {
      expect(applyHeapPolicy()).toBe(false);
    } finally {
      if (saved === undefined) delete process.env['NODE_OPTIONS'];
      else process.env['NODE_OPTIONS'] = saved;
    }
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });

  it("sets V8's heap growth when the command line chose none", () => {
    expect(applyHeapPolicy(['--enable-source-maps'])).toBe(true);
    expect(setFlagsFromString).toHaveBeenCalledWith(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it.each([
    '--heap-growing-percent=50',
    '--max-old-space-size=1024',
    '--max-heap-size=512',
    '--max-semi-space-size=4',
  ])("leaves an operator's %s alone", (flag) => {
    expect(applyHeapPolicy(['--enable-source-maps', flag])).toBe(false);
    expect(setFlagsFromString).not.toHaveBeenCalled();
    expect(workerHeapFlags(['--enable-source-maps', flag])).toEqual([]);
  });
});

describe('workerHeapFlags', () => {
  it('caps the old generation at the growth factor, keeping the young one whole', () => {
    expect(workerHeapFlags(['--enable-source-maps'])).toEqual([
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
      '--max-old-space-size=192',
      '--max-semi-space-size=16',
    ]);
  });

  it('are flags the primary hands on, so a worker sets none of its own', () => {
    expect(applyHeapPolicy(workerHeapFlags([]))).toBe(false);
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
