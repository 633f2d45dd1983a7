import type { EventEmitter } from 'node:events';

/**
 * A handler's CPU-only work (inflating a body, large ones one at a time)
 * is not a wait for the database: between `pauseDeadline` and
 * `restartDeadline` the gateway's per-request deadline does not run, and it
 * starts again in full after.
 */
export const DEADLINE_PAUSE = 'quitanda:deadline-pause';
export const DEADLINE_RESTART = 'quitanda:deadline-restart';

export function pauseDeadline(request: EventEmitter): void {
  request.emit(DEADLINE_PAUSE);
}

export function restartDeadline(request: EventEmitter): void {
  request.emit(DEADLINE_RESTART);
}
