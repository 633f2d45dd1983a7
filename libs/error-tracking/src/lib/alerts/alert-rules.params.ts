import type { Params } from '../http/params';
import type { AlertRules } from '../alerting/alert.types';
import {
  DEFAULT_FREQUENT_WINDOW_MINUTES,
  MAX_FREQUENT_THRESHOLD,
  MAX_FREQUENT_WINDOW_MINUTES,
} from './alerts.service';

const OFF = new Set(['', 'null', 'off']);

/**
 * `frequent_threshold` (required; null, empty or `off` turns it off) and
 * `frequent_window_minutes` (default 60), with Grape's messages. Call
 * `params.check()` afterwards.
 */
export function readAlertRules(
  params: Params,
  source: Readonly<Record<string, unknown>>,
): AlertRules | undefined {
  const raw = source['frequent_threshold'];
  let threshold: number | null | undefined;
  if (!('frequent_threshold' in source)) {
    params.invalid('frequent_threshold is missing');
  } else if (
    raw === null ||
    (typeof raw === 'string' && OFF.has(raw.trim().toLowerCase()))
  ) {
    threshold = null;
  } else {
    threshold = params.integer('frequent_threshold', true);
    if (
      threshold !== undefined &&
      (threshold < 1 || threshold > MAX_FREQUENT_THRESHOLD)
    ) {
      params.invalid('frequent_threshold does not have a valid value');
      threshold = undefined;
    }
  }
  let window = params.integer('frequent_window_minutes');
  if (
    window !== undefined &&
    (window < 1 || window > MAX_FREQUENT_WINDOW_MINUTES)
  ) {
    params.invalid('frequent_window_minutes does not have a valid value');
    window = undefined;
  }
  if (threshold === undefined) return undefined;
  return {
    frequentThreshold: threshold,
    frequentWindowMinutes: window ?? DEFAULT_FREQUENT_WINDOW_MINUTES,
  };
}
