/**
 * A handler's CPU-only work (inflating a body, large ones one at a time)
 * is not a wait for the database: between `pauseDeadline` and
 * `restartDeadline` the gateway's per-request deadline does not run, and it
 * starts again in full after.
 *
 * The deadline keeps its controls on the request under this key (a
 * property, not events: two listeners added and removed on every request
 * for a call that only the collector makes).
 */
export const DEADLINE = Symbol('quitanda.request-deadline');

export interface DeadlineControl {
  pause(): void;
  restart(): void;
}

type Controlled = { [DEADLINE]?: DeadlineControl };

export function pauseDeadline(request: object): void {
  (request as Controlled)[DEADLINE]?.pause();
}

export function restartDeadline(request: object): void {
  (request as Controlled)[DEADLINE]?.restart();
}
