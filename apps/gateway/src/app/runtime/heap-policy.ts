import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what a full collection left
 * live before it collects again: 200 means to three times the live size.
 *
 * Left to itself, V8 picks a factor of up to four on a machine with this
 * much memory and postpones full collections under a high allocation rate,
 * so the gateway's peak RSS under saturating load reached 280-305 MB for a
 * live heap of about 40 MB. At three times it peaked 30-45 MB lower with
 * throughput and p99 within the runs' noise; tighter factors (1.5x, 2x) or
 * a heap cap lowered it further but doubled p99 (docs/performance.md,
 * "Heap flags A/B").
 */
export const HEAP_GROWING_PERCENT = 200;

/** Flags through which an operator chose a heap policy of their own. */
const HEAP_FLAGS =
  /^--(heap-growing-percent|max-old-space-size|max-heap-size)(=|$)/;

/** The node flags this process started with (its command line and `NODE_OPTIONS`). */
function nodeFlags(): string[] {
  return [
    ...process.execArgv,
    ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/),
  ];
}

/**
 * Sets the gateway's heap growth unless its node flags already set a heap
 * policy. Set here rather than on every command line that starts the
 * gateway (npm start, the image, the benchmark, the tests): Node refuses
 * this flag in `NODE_OPTIONS`, and V8 reads it at each collection.
 */
export function applyHeapPolicy(
  flags: readonly string[] = nodeFlags(),
): boolean {
  if (flags.some((flag) => HEAP_FLAGS.test(flag))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
