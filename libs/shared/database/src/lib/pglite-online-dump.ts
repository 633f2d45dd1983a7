import { setTimeout as delay } from 'node:timers/promises';

import type { PGlite } from '@electric-sql/pglite';

/** A simple-protocol Query message for `sql`. */
function queryMessage(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return new Uint8Array(message);
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * PGlite's pg_dump on a database that is serving clients. PGlite has one
 * session for every connection, so:
 * - the dump must start between two of the clients' transactions, never
 *   inside one; pg_dump runs as synchronous WebAssembly, so once its first
 *   message finds no transaction open nothing interleaves until it ends,
 *   and its snapshot is consistent (a busy start is retried);
 * - pg_dump leaves its read-only transaction open, its prepared statements
 *   and its settings behind (it expects its session to end): all undone in
 *   the same synchronous turn, before any client's message can run.
 */
export async function pgDumpWhileServing(
  db: PGlite,
  args: readonly string[],
): Promise<string> {
  // Loaded on demand: only backups need it.
  const { pgDump } = await import('@electric-sql/pglite-tools');
  for (;;) {
    const session = (
      await db.query<{ name: string; setting: string }>(
        "SELECT name, setting FROM pg_settings WHERE source = 'session'",
      )
    ).rows;
    const restore = [
      'ROLLBACK',
      'DEALLOCATE ALL',
      'RESET ALL',
      ...session.map(
        ({ name, setting }) =>
          `SELECT set_config(${literal(name)}, ${literal(setting)}, false)`,
      ),
    ].join('; ');
    let started = false;
    const guarded = new Proxy(db, {
      get(target, property) {
        if (property === 'execProtocolRawStream')
          return (...call: Parameters<PGlite['execProtocolRawStream']>) => {
            if (!started) {
              if (target.isInTransaction()) throw new Error('busy');
              started = true;
            }
            return target.execProtocolRawStream(...call);
          };
        // pglite-tools' first step once pg_dump has returned, still in the
        // turn pg_dump ran in: the session is put back there.
        if (property === 'exec')
          return (sql: string, ...rest: unknown[]) => {
            if (sql !== 'DEALLOCATE ALL')
              return target.exec(sql, ...(rest as []));
            target.execProtocolRawSync(queryMessage(restore));
            return Promise.resolve([]);
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    try {
      const file = await pgDump({ pg: guarded, args: [...args] });
      return await file.text();
    } catch (error) {
      if (started) throw error;
    }
    // A client's transaction was open: its next statement is due at once.
    await delay(5);
  }
}
