// Serves an embedded database's data directory until standard input closes,
// printing its URL: PGlite on a data directory needs dynamic imports, which
// Jest's module sandbox refuses, so tests run it in a process of its own.
import { startEmbeddedPostgres } from '@quitanda/database';

startEmbeddedPostgres({ dataDir: String(process.argv[2]) }).then(
  (db) => {
    process.stdout.write(`${db.url}\n`);
    process.stdin.on('end', () => {
      db.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
    process.stdin.resume();
  },
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
