import type { EventEmitter } from 'node:events';

/**
 * Emitted on a request whose handler has finished the work that depends on
 * the client and on CPU alone (reading and inflating its body): the
 * gateway's per-request deadline, which bounds waits for the database,
 * starts again from there.
 */
export const DEADLINE_RESTART = 'quitanda:deadline-restart';

export function restartDeadline(request: EventEmitter): void {
  request.emit(DEADLINE_RESTART);
}
