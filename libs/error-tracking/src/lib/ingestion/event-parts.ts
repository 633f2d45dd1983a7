import type { JsonObject } from '../sentry-event/event-json';

/** A stack frame as SDKs send it (any other keys kept). */
export interface Frame extends JsonObject {
  readonly filename?: unknown;
  readonly abs_path?: unknown;
  readonly module?: unknown;
  readonly function?: unknown;
  readonly lineno?: unknown;
  readonly colno?: unknown;
  readonly in_app?: unknown;
}

export interface ExceptionValue {
  readonly type?: string;
  readonly value?: string;
  readonly module?: string;
  readonly synthetic: boolean;
  readonly frames: readonly Frame[];
}
