import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what a full collection left
 * live before it collects again: 200 means to three times the live size.
 * Left to itself, V8 picks up to four times on a machine with this much
 * memory. Tighter factors cost throughput and p99 (docs/performance.md,
 * "Memory").
 */
export const HEAP_GROWING_PERCENT = 200;

/**
 * A worker's old generation never passes this, whatever the factor above
 * allows: the contract's 300 MB of resident memory, less V8's young
 * generation (2 x 16 MiB), the binary's mapped pages (about 53 MB) and
 * native memory (about 25 MB under load). A factor alone let an unlucky
 * full collection, taken while many requests were in flight, set the next
 * limit high enough for one gateway to peak at 375 MB. A live heap past it
 * ends the worker (V8 cannot go on) and the primary starts another; the
 * gateway's body, item and result limits keep the live heap far below it
 * (about 55 MB, most of it loaded code).
 */
export const MAX_OLD_SPACE_MB = 192;

/**
 * V8 sizes its young generation from the old one's limit: with the limit
 * above it would pick 1 MiB semi-spaces, promote most of every request's
 * garbage and collect the old generation several times as often (7-17% of
 * the throughput, three times the p99). 16 MiB is its size without a limit.
 */
export const SEMI_SPACE_MB = 16;

/** Flags through which an operator chose a heap policy of their own. */
const HEAP_FLAGS =
  /^--(heap-growing-percent|max-old-space-size|max-heap-size|max-semi-space-size)(=|$)/;

/** The node flags this process started with (its command line and `NODE_OPTIONS`). */
function nodeFlags(): string[] {
  return [
    ...process.execArgv,
    ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/),
  ];
}

/**
 * The flags the primary adds to its workers' command line, unless its own
 * node flags chose a heap policy (an operator's flag wins, and then none of
 * these is added). On the command line because V8 sizes its heap once, at
 * start, and Node refuses these flags in `NODE_OPTIONS`.
 */
export function workerHeapFlags(
  flags: readonly string[] = nodeFlags(),
): string[] {
  if (flags.some((flag) => HEAP_FLAGS.test(flag))) return [];
  return [
    `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    `--max-old-space-size=${MAX_OLD_SPACE_MB}`,
    `--max-semi-space-size=${SEMI_SPACE_MB}`,
  ];
}

/**
 * Sets the heap growth of a process that serves without a primary (the
 * embedded database), unless its node flags chose a heap policy; a worker
 * already has it from its command line. V8 reads the growth at each
 * collection, so it can be set here; its limits cannot be changed once it
 * runs.
 */
export function applyHeapPolicy(
  flags: readonly string[] = nodeFlags(),
): boolean {
  if (flags.some((flag) => HEAP_FLAGS.test(flag))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
