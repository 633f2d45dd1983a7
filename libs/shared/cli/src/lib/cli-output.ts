/**
 * A command's result, one line on standard output; prompts and progress go
 * to standard error, so scripts can read the result alone.
 */
export function printLine(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** A command's result as indented JSON, for people and `jq` alike. */
export function printJson(value: unknown): void {
  printLine(JSON.stringify(value, null, 2));
}
