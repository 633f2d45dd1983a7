/** The value, or a test failure naming what was missing (instead of `!`). */
export function defined<T>(value: T | null | undefined, what = 'value'): T {
  if (value === null || value === undefined)
    throw new Error(`Expected ${what} to be defined`);
  return value;
}
