import { maskVariables } from './grouping-v1';
import type { GroupingRules } from './grouping-rules';
import { withoutGenerated } from './grouping-rules';

/** A native symbol without its parameter list or offset: `ns::f(int) + 12` is `ns::f`. */
function nativeFunction(name: string): string {
  let result = name.replace(/\s*\+\s*(?:0x[0-9a-f]+|\d+)$/i, '');
  if (!result.startsWith('-[') && !result.startsWith('+[')) {
    const open = result.indexOf('(');
    if (open > 0) result = result.slice(0, open);
  }
  return withoutGenerated(result.trim());
}

/**
 * Grouping version 2, frozen: errors stored with it keep collecting their
 * events, which `groupingCandidates` also hashes this way. Never change it:
 * numbers, hex and UUIDs masked anywhere in a value, native functions cut
 * at their parameter list, frames in app only when the SDK said so.
 */
export const GROUPING_V2: GroupingRules = {
  version: 2,
  maskValue: maskVariables,
  maskMessage: maskVariables,
  nativeFunction,
  inApp: (frames) => frames.map((frame) => frame.in_app === true),
};
