import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';

import { SPOOL_FILE_OVERHEAD_BYTES, SpoolStore } from './spool-store';

const entry = (text: string, events = 1) => ({
  body: JSON.stringify({ text }),
  events,
});
const bodyOf = (text: string) => JSON.stringify({ text });

/** What the spool's files take on disk: the database, its WAL and index. */
function filesBytes(path: string): number {
  return ['', '-wal', '-shm']
    .map((suffix) => `${path}${suffix}`)
    .filter((file) => existsSync(file))
    .reduce((total, file) => total + statSync(file).size, 0);
}

describe('SpoolStore', () => {
  let dir: string;
  let path: string;
  const opened: SpoolStore[] = [];
  const open = (maxBytes = 1_000_000) => {
    const store = new SpoolStore(path, maxBytes);
    opened.push(store);
    return store;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quitanda-spool-'));
    path = join(dir, 'spool', 'collector.sqlite');
  });

  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps what it acknowledged across a reopen, in WAL mode', () => {
    const store = open();
    expect(store.append([entry('a', 2), entry('b')], 1_000)).toEqual([
      true,
      true,
    ]);
    store.close();

    const reopened = open();
    expect(reopened.stats(61_000)).toEqual({
      events: 3,
      bytes: bodyOf('a').length + bodyOf('b').length,
      oldestAgeSeconds: 60,
    });
    expect(reopened.claim(10, 1_000_000).map((c) => c.body)).toEqual([
      bodyOf('a'),
      bodyOf('b'),
    ]);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });

  it('refuses, and keeps nothing of, an entry past the bound', () => {
    // The requests are held to the bound; the files get room for SQLite's own pages.
    const size = bodyOf('a').length;
    const store = open(2 * size);
    expect(store.append([entry('a'), entry('b'), entry('c')], 0)).toEqual([
      true,
      true,
      false,
    ]);
    expect(store.append([entry('d')], 0)).toEqual([false]);
    expect(store.stats(0)).toMatchObject({ events: 2, bytes: 2 * size });

    store.remove(store.claim(1, 1_000_000).map((c) => c.id));
    expect(store.append([entry('d')], 0)).toEqual([true]);
    expect(store.claim(10, 1_000_000).map((c) => c.body)).toEqual([
      bodyOf('b'),
      bodyOf('d'),
    ]);
  });

  it('keeps its files, WAL included, within the bound, and shrinks them after a drain', () => {
    const bound = 2 * 1024 * 1024;
    const store = open(bound);
    const body = 'x'.repeat(16 * 1024);
    let most = 0;
    for (let round = 0; round < 3; round++) {
      let accepted = 0;
      while (store.append([entry(`${round}:${accepted}:${body}`)], 0)[0]) {
        accepted += 1;
        most = Math.max(most, filesBytes(path));
      }
      // Most of the bound is still usable for requests.
      expect(accepted * body.length).toBeGreaterThan(bound / 2);
      for (let batch = store.claim(16, bound); batch.length > 0;) {
        store.remove(batch.map((c) => c.id));
        most = Math.max(most, filesBytes(path));
        batch = store.claim(16, bound);
      }
      expect(filesBytes(path)).toBeLessThan(bound / 8);
    }
    // The database file and its WAL (their own overhead, and the pages of
    // the last write past the estimate); the WAL index (-shm) is 32 KiB more.
    expect(most).toBeLessThanOrEqual(
      bound + SPOOL_FILE_OVERHEAD_BYTES + 32 * 1024 + 2 * body.length,
    );
  });

  it('turns a file made without auto_vacuum into one with it, keeping what it holds', () => {
    const store = open();
    store.append([entry('a'), entry('b')], 0);
    store.close();
    const old = new Database(path);
    try {
      old.pragma('auto_vacuum = NONE');
      old.exec('VACUUM');
      expect(old.pragma('auto_vacuum', { simple: true })).toBe(0);
    } finally {
      old.close();
    }
    const reopened = open();
    expect(reopened.claim(10, 1_000_000).map((c) => c.body)).toEqual([
      bodyOf('a'),
      bodyOf('b'),
    ]);
    reopened.close();
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma('auto_vacuum', { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });

  it('hands out the oldest first, within the batch bounds, at least one', () => {
    const store = open();
    store.append(
      ['a', 'b', 'c'].map((t) => entry(t)),
      0,
    );
    const first = store.claim(2, 1_000_000);
    expect(first.map((c) => c.body)).toEqual([bodyOf('a'), bodyOf('b')]);
    // Past the byte bound, still one.
    expect(store.claim(10, 1).map((c) => c.body)).toEqual([bodyOf('a')]);
    store.remove([first[0]?.id ?? 0]);
    expect(store.claim(10, 1_000_000).map((c) => c.body)).toEqual([
      bodyOf('b'),
      bodyOf('c'),
    ]);
  });

  it('leaves what a live process claimed, and takes over the claims of one that died', () => {
    const store = open();
    store.append([entry('a'), entry('b')], 0);
    const db = new Database(path);
    try {
      // A pid no process has (beyond Linux's pid_max), and a live one.
      db.prepare(
        "UPDATE spooled_requests SET claimed_by = '4194305:dead' WHERE id = 1",
      ).run();
      db.prepare('UPDATE spooled_requests SET claimed_by = ? WHERE id = 2').run(
        `${process.ppid}:alive`,
      );
    } finally {
      db.close();
    }
    expect(store.claim(10, 1_000_000).map((c) => c.body)).toEqual([
      bodyOf('a'),
    ]);
  });

  it('skips a parked request but still counts it', () => {
    const store = open();
    store.append([entry('a'), entry('b')], 0);
    const [a] = store.claim(1, 1_000_000);
    store.park(a?.id ?? 0, 'refused');
    store.release([a?.id ?? 0]);
    expect(store.claim(10, 1_000_000).map((c) => c.body)).toEqual([
      bodyOf('b'),
    ]);
    expect(store.stats(0).events).toBe(2);
  });

  it('names its requests for good: one identity per file across reopens, ids never reused below the lowest left', () => {
    const store = open();
    const identity = store.identity;
    expect(identity).toMatch(/^[0-9a-f-]{36}$/);
    expect(store.lowestId()).toBe(1);
    store.append([entry('a'), entry('b'), entry('c')], 0);
    expect(store.lowestId()).toBe(1);
    store.remove([1, 3]);
    expect(store.lowestId()).toBe(2);
    store.remove([2]);
    // Empty: the next id, which a new request gets (not 1 again).
    expect(store.lowestId()).toBe(4);
    store.close();

    const reopened = open();
    expect(reopened.identity).toBe(identity);
    reopened.append([entry('d')], 0);
    expect(reopened.claim(10, 1_000_000).map((c) => c.id)).toEqual([4]);
    // Another file is another spool.
    path = join(dir, 'other.sqlite');
    expect(open().identity).not.toBe(identity);
  });
});
