/**
 * Child process serving one in-memory PGlite, cloned from a template dump, to
 * one test file. PGlite lives outside Jest's VM sandbox (which cannot run its
 * dynamic imports) and on its own core, as a real server would.
 *
 * Protocol: argv[2] is the dump file; prints one JSON line `{"url": ...}` when
 * ready; exits when its stdin closes, so it never outlives the test worker.
 */
import { readFile } from 'node:fs/promises';

import { startEmbeddedPostgres } from '@quitanda/database';

async function main(): Promise<void> {
  const dumpFile = process.argv[2];
  if (!dumpFile) throw new Error('usage: pglite-test-server <dump-file>');
  const dump = new Blob([await readFile(dumpFile)]);
  const embedded = await startEmbeddedPostgres({ loadDataDir: dump });
  process.stdout.write(`${JSON.stringify({ url: embedded.url })}\n`);
  const stop = () => {
    embedded.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
