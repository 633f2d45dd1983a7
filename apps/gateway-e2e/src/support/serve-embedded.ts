// Serves an embedded database's data directory until standard input closes,
// printing its URL: PGlite on a data directory needs dynamic imports, which
// Jest's module sandbox refuses, so tests run it in a process of its own.
import { startEmbeddedPostgres } from '@quitanda/database';

void startEmbeddedPostgres({ dataDir: String(process.argv[2]) }).then((db) => {
  process.stdout.write(`${db.url}\n`);
  process.stdin.on('end', () => void db.close().then(() => process.exit(0)));
  process.stdin.resume();
});
