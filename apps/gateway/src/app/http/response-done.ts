import type { EventEmitter } from 'node:events';

const CALLBACKS = Symbol('response-done');

type Tracked = EventEmitter & { [CALLBACKS]?: (() => void)[] };

/**
 * Runs `callback` once the response is over: sent in full, or its client
 * gone. Node emits `close` after `finish` when a response completes and
 * alone when the connection drops first, so `close` marks both; whether
 * the response was sent is `res.writableFinished`.
 *
 * Every callback of a response hangs off one listener: the request log,
 * the metrics and the deadline each adding their own `finish` or `close`
 * listener made four per request, and adding and removing listeners was a
 * tenth of the events API's time outside Node's HTTP code. (`on-finished`,
 * Express's own helper, queues callbacks the same way but listens on both
 * the message and its socket: four listeners again.)
 */
export function onResponseDone(res: EventEmitter, callback: () => void): void {
  const tracked = res as Tracked;
  let callbacks = tracked[CALLBACKS];
  if (!callbacks) {
    const list: (() => void)[] = [];
    callbacks = list;
    tracked[CALLBACKS] = list;
    res.once('close', () => {
      for (const run of list) run();
    });
  }
  callbacks.push(callback);
}
