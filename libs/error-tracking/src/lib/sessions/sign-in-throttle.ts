/** Failures of one username counted together unless this far apart. */
export const THROTTLE_RESET_MS = 15 * 60_000;
/** Failures allowed before any wait. */
const FREE_FAILURES = 3;

/** When a username is refused outright, and for how long (configuration). */
export interface SignInLockPolicy {
  readonly maxFailures: number;
  readonly lockMs: number;
}

/**
 * How long a username waits after its `failures`-th failed sign-in: nothing
 * for the first two, then 1, 2, 4 ... seconds (slowed, never longer than the
 * lock), and the whole lock from the `maxFailures`-th on (refused for a
 * while; 10 failures and 15 minutes unless configured).
 */
export function signInDelayMs(
  failures: number,
  policy: SignInLockPolicy,
): number {
  if (failures >= policy.maxFailures) return policy.lockMs;
  if (failures < FREE_FAILURES) return 0;
  return Math.min(policy.lockMs, 1000 * 2 ** (failures - FREE_FAILURES));
}

/**
 * `signInDelayMs` of the 1st to the `maxFailures`-th failure, for the
 * database to apply as it counts an attempt (the last one beyond).
 */
export function signInDelaysMs(policy: SignInLockPolicy): number[] {
  return Array.from({ length: policy.maxFailures }, (_, n) =>
    signInDelayMs(n + 1, policy),
  );
}
