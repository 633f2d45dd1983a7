/** `%`, `_` and `\` literal, for a substring search. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A tag value with Sentry's `*` wildcard as a LIKE pattern; undefined without one. */
export function wildcardPattern(value: string): string | undefined {
  if (!value.includes('*')) return undefined;
  return value.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

/** Adds a parameter; returns its placeholder. */
export function bind(params: unknown[], value: unknown): string {
  params.push(value);
  return `$${params.length}`;
}
