import { Option } from 'nest-commander';

/**
 * Declares a command-line option on the method that parses its value (the
 * way nest-commander finds options). `required` makes commander refuse a
 * run without the flag; an empty value still needs `requireOptions`.
 */
export function CliOption(
  flags: string,
  description: string,
  required?: boolean,
): MethodDecorator {
  return Option({ flags, description, required });
}

/**
 * Fails a run whose named options are missing or empty, naming all of them
 * (`--app and --username are required`) so the operator fixes the command
 * line once.
 */
export function requireOptions<T extends object, K extends keyof T & string>(
  options: T,
  ...names: K[]
): asserts options is T & { [P in K]-?: NonNullable<T[P]> } {
  if (names.every((name) => options[name])) return;
  const flags = names.map(
    (name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
  );
  throw new Error(
    flags.length === 1
      ? `${flags[0]} is required`
      : `${flags.slice(0, -1).join(', ')} and ${flags.at(-1)} are required`,
  );
}
