import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

import Database from 'better-sqlite3';

/** What the spool holds: readiness and `/metrics` report it. */
export interface SpoolStats {
  readonly events: number;
  /** Payload bytes (the spooled requests' text). */
  readonly bytes: number;
  /** Age of the oldest spooled request; 0 when empty. */
  readonly oldestAgeSeconds: number;
}

/** One request to spool: its text and how many events it carries. */
export interface SpoolEntry {
  readonly body: string;
  readonly events: number;
}

/** A spooled request taken for draining, oldest first. */
export interface ClaimedEntry {
  readonly id: number;
  readonly body: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS spooled_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  spooled_at INTEGER NOT NULL,
  events INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  body TEXT NOT NULL,
  claimed_by TEXT,
  parked TEXT
);
CREATE INDEX IF NOT EXISTS spooled_claims
  ON spooled_requests (claimed_by) WHERE claimed_by IS NOT NULL;
CREATE TABLE IF NOT EXISTS spool_totals (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  events INTEGER NOT NULL,
  bytes INTEGER NOT NULL
);
INSERT OR IGNORE INTO spool_totals (id, events, bytes) VALUES (1, 0, 0);
CREATE TABLE IF NOT EXISTS spool_identity (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  uuid TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS spooled_in AFTER INSERT ON spooled_requests BEGIN
  UPDATE spool_totals SET events = events + new.events, bytes = bytes + new.bytes;
END;
CREATE TRIGGER IF NOT EXISTS spooled_out AFTER DELETE ON spooled_requests BEGIN
  UPDATE spool_totals SET events = events - old.events, bytes = bytes - old.bytes;
END;
`;

/** SQLite's own default checkpoint point (1,000 pages of 4 KiB). */
const MAX_WAL_BYTES = 4 * 1024 * 1024;

/**
 * What the files take beyond the requests they hold whatever the bound:
 * the schema's pages (about 74 KB empty) and a WAL between checkpoints at
 * a small bound. The requests are held to the bound itself, the files to
 * the bound plus this; without it a bound of a few KiB would hold nothing.
 */
export const SPOOL_FILE_OVERHEAD_BYTES = 256 * 1024;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The collector's durable spool: a SQLite file (WAL, `synchronous=FULL`,
 * so a request's rows are on disk when `append` returns) holding prepared
 * collector requests in arrival order until the drainer has committed them
 * to PostgreSQL.
 *
 * The bound counts what the files take (the database and its WAL) or the
 * payload, whichever is more: freed pages go back to the file system
 * (`auto_vacuum`), the WAL is checkpointed once it reaches an eighth of
 * the bound (4 MiB at most) and cut back to that size
 * (`journal_size_limit`), and to nothing after each drain. Payload totals are kept by triggers in the
 * same transactions as the rows, exact even when gateways on one host
 * share a `DATA_DIR`. Those
 * gateways drain the same file: a request is claimed by one process before
 * it is flushed, and the claims of a process that died (kill -9 while
 * draining) are taken over by whoever drains next.
 */
export class SpoolStore {
  private readonly db: Database.Database;
  /** `pid:uuid`: a restarted process that got the same pid is another owner. */
  private readonly owner = `${process.pid}:${randomUUID()}`;
  /**
   * This file's identity, made with it: with a row's id (AUTOINCREMENT,
   * never reused) it names a spooled request wherever it is drained.
   */
  readonly identity: string;
  private readonly statements: {
    totals: Database.Statement<[], { events: number; bytes: number }>;
    insert: Database.Statement<[number, number, number, string]>;
    oldest: Database.Statement<[], { spooled_at: number }>;
    owners: Database.Statement<[], { claimed_by: string }>;
    release: Database.Statement<[string]>;
    candidates: Database.Statement<[string], ClaimedEntry>;
    claim: Database.Statement<[string, number]>;
    remove: Database.Statement<[number]>;
    unclaim: Database.Statement<[number]>;
    park: Database.Statement<[string, number]>;
    lowest: Database.Statement<[], { below: number }>;
  };

  constructor(
    path: string,
    private readonly maxBytes: number,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.db = new Database(path);
    const db = this.db;
    // Before any table: a file made by an earlier version is rewritten once.
    db.pragma('auto_vacuum = FULL');
    if (db.pragma('auto_vacuum', { simple: true }) !== 1) db.exec('VACUUM');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    const walBytes = Math.min(Math.floor(maxBytes / 8), MAX_WAL_BYTES);
    const pageBytes = db.pragma('page_size', { simple: true }) as number;
    db.pragma(`journal_size_limit = ${walBytes}`);
    db.pragma(
      `wal_autocheckpoint = ${Math.max(1, Math.floor(walBytes / pageBytes))}`,
    );
    db.exec(SCHEMA);
    db.prepare(
      'INSERT OR IGNORE INTO spool_identity (id, uuid) VALUES (1, ?)',
    ).run(randomUUID());
    this.identity = (
      db.prepare('SELECT uuid FROM spool_identity WHERE id = 1').get() as {
        uuid: string;
      }
    ).uuid;
    this.statements = {
      totals: db.prepare('SELECT events, bytes FROM spool_totals WHERE id = 1'),
      insert: db.prepare(
        'INSERT INTO spooled_requests (spooled_at, events, bytes, body) VALUES (?, ?, ?, ?)',
      ),
      oldest: db.prepare(
        'SELECT spooled_at FROM spooled_requests ORDER BY id LIMIT 1',
      ),
      owners: db.prepare(
        'SELECT DISTINCT claimed_by FROM spooled_requests WHERE claimed_by IS NOT NULL',
      ),
      release: db.prepare(
        'UPDATE spooled_requests SET claimed_by = NULL WHERE claimed_by = ?',
      ),
      candidates: db.prepare(
        `SELECT id, body FROM spooled_requests
          WHERE parked IS NULL AND (claimed_by IS NULL OR claimed_by = ?)
          ORDER BY id`,
      ),
      claim: db.prepare(
        'UPDATE spooled_requests SET claimed_by = ? WHERE id = ?',
      ),
      remove: db.prepare('DELETE FROM spooled_requests WHERE id = ?'),
      unclaim: db.prepare(
        'UPDATE spooled_requests SET claimed_by = NULL WHERE id = ?',
      ),
      park: db.prepare('UPDATE spooled_requests SET parked = ? WHERE id = ?'),
      lowest: db.prepare(
        `SELECT coalesce(
           (SELECT min(id) FROM spooled_requests),
           (SELECT seq + 1 FROM sqlite_sequence WHERE name = 'spooled_requests'),
           1) AS below`,
      ),
    };
  }

  /**
   * Writes the entries that fit under the bound in one transaction, synced
   * before it returns; `false` for each entry refused (nothing of it kept).
   */
  append(entries: readonly SpoolEntry[], now: number): boolean[] {
    return this.db
      .transaction(() => {
        let bytes = this.totals().bytes;
        let files = this.filesBytes();
        return entries.map((entry) => {
          const size = Buffer.byteLength(entry.body);
          if (
            bytes + size > this.maxBytes ||
            files + size > this.maxBytes + SPOOL_FILE_OVERHEAD_BYTES
          )
            return false;
          this.statements.insert.run(now, entry.events, size, entry.body);
          bytes += size;
          files += size;
          return true;
        });
      })
      .immediate();
  }

  /**
   * Takes the oldest unclaimed requests, up to `maxEntries` or `maxBytes`
   * (at least one), for this process to drain; parked ones are skipped.
   */
  claim(maxEntries: number, maxBytes: number): ClaimedEntry[] {
    return this.db
      .transaction(() => {
        for (const { claimed_by: owner } of this.statements.owners.all()) {
          const pid = Number(owner.split(':')[0]);
          if (owner !== this.owner && (pid === process.pid || !alive(pid)))
            this.statements.release.run(owner);
        }
        const claimed: ClaimedEntry[] = [];
        let bytes = 0;
        for (const entry of this.statements.candidates.iterate(this.owner)) {
          if (
            claimed.length > 0 &&
            (claimed.length >= maxEntries ||
              bytes + entry.body.length > maxBytes)
          )
            break;
          claimed.push(entry);
          bytes += entry.body.length;
        }
        for (const { id } of claimed) this.statements.claim.run(this.owner, id);
        return claimed;
      })
      .immediate();
  }

  /**
   * Forgets drained requests (their data is committed in PostgreSQL) and
   * gives their space back: the WAL is checkpointed and emptied.
   */
  remove(ids: readonly number[]): void {
    this.db.transaction(() => {
      for (const id of ids) this.statements.remove.run(id);
    })();
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** Gives claimed requests back (their flush did not happen). */
  release(ids: readonly number[]): void {
    this.db.transaction(() => {
      for (const id of ids) this.statements.unclaim.run(id);
    })();
  }

  /**
   * Sets a request aside that the database refuses for good (kept for an
   * operator, still counted, never retried), so it does not block the rest.
   */
  park(id: number, reason: string): void {
    this.statements.park.run(reason, id);
  }

  /**
   * The lowest id a request in the file has, or will have: every request
   * below it is gone for good (ids only grow).
   */
  lowestId(): number {
    return (this.statements.lowest.get() as { below: number }).below;
  }

  stats(now: number): SpoolStats {
    const { events, bytes } = this.totals();
    const oldest = this.statements.oldest.get();
    return {
      events,
      bytes,
      oldestAgeSeconds: oldest
        ? Math.max(0, Math.floor((now - oldest.spooled_at) / 1000))
        : 0,
    };
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** The database file and its WAL, as the file system holds them. */
  private filesBytes(): number {
    const path = this.db.name;
    const wal = `${path}-wal`;
    return statSync(path).size + (existsSync(wal) ? statSync(wal).size : 0);
  }

  private totals(): { events: number; bytes: number } {
    return this.statements.totals.get() ?? { events: 0, bytes: 0 };
  }
}
