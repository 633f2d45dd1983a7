import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';

import StreamArray from 'stream-json/streamers/StreamArray';

/**
 * The elements of a file holding one JSON array, `size` at a time, parsed
 * as a stream (stream-json): a file of a million records never sits in
 * memory whole, and the file is read only as fast as batches are consumed.
 */
export async function* jsonArrayBatches(
  file: string,
  size: number,
): AsyncGenerator<unknown[]> {
  const elements = pipeline(
    createReadStream(file),
    StreamArray.withParser(),
    () => undefined, // errors surface through the iteration below
  );
  let batch: unknown[] = [];
  for await (const { value } of elements as AsyncIterable<{
    value: unknown;
  }>) {
    batch.push(value);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
