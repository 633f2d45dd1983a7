/** Failures of one username counted together unless this far apart. */
export const THROTTLE_RESET_MS = 15 * 60_000;
/** Failures allowed before any wait. */
const FREE_FAILURES = 3;
/** Failures after which the username is refused for `LOCK_MS`. */
export const LOCK_AFTER_FAILURES = 10;
const LOCK_MS = 15 * 60_000;

/**
 * How long a username waits after its `failures`-th failed sign-in: nothing
 * for the first three, then 1, 2, 4 ... 64 seconds (slowed), then 15
 * minutes from the tenth (refused for a while).
 */
export function signInDelayMs(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  if (failures >= LOCK_AFTER_FAILURES) return LOCK_MS;
  return 1000 * 2 ** (failures - FREE_FAILURES);
}
