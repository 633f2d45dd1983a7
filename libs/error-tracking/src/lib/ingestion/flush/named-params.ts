/**
 * A statement's parameters bound by name instead of by counting `$n`:
 * `refs.name` is the placeholder to write into the SQL text (`$1`, `$2`, ...
 * in declaration order), `values(input)` the parameter array of one
 * execution, read from `input` by each parameter's getter.
 */
export interface NamedParams<Input, Name extends string> {
  readonly refs: Readonly<Record<Name, string>>;
  values(input: Input): unknown[];
}

export function namedParams<Input, Name extends string>(
  getters: Readonly<Record<Name, (input: Input) => unknown>>,
): NamedParams<Input, Name> {
  const names = Object.keys(getters) as Name[];
  const refs = Object.fromEntries(
    names.map((name, index) => [name, `$${index + 1}`]),
  ) as Record<Name, string>;
  const read = names.map((name) => getters[name]);
  return {
    refs,
    values: (input) => read.map((get) => get(input)),
  };
}
