/** A `--batch <size>` option's value: a positive integer. */
export function batchSize(value: string): number {
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1)
    throw new Error('--batch must be a positive integer');
  return size;
}
