import type { Frame, NormalizedEvent } from './normalize-event';

/** What differs between grouping versions; the components are built alike. */
export interface GroupingRules {
  readonly version: number;
  /** A frameless exception's value, or an event's title. */
  readonly maskValue: (value: string) => string;
  /** A message (its template). */
  readonly maskMessage: (message: string) => string;
  /** A native frame's function. */
  readonly nativeFunction: (name: string) => string;
  /** Which frames of a stack trace are the application's (given each one's platform). */
  readonly inApp: (
    frames: readonly Frame[],
    platforms: readonly string[],
    event: NormalizedEvent,
  ) => boolean[];
}

/** Generated parts of names (JVM lambdas and proxies), which vary by run. */
const GENERATED = [
  [/\$\$Lambda[$/][^.\s]*/g, '$$$$Lambda'],
  [/\$\$(\w+?)(?:BySpringCGLIB|ByCGLIB|ByGuice)\$\$\w+/g, '$$$$$1$$$$'],
  [/\$HibernateProxy\$\w+/g, '$$HibernateProxy$$'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
] as const;

export function withoutGenerated(name: string): string {
  // Most names have neither mark: no expression runs for them.
  if (!name.includes('$') && !name.includes('0x')) return name;
  let result = name;
  for (const [pattern, replacement] of GENERATED)
    result = result.replace(pattern, replacement);
  return result;
}
