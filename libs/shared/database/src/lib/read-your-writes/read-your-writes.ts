import { SharedQuery } from './shared-query';
import type { WalPosition } from './wal-position';

/** Where positions come from: SQL on a DataSource's pools, fakes in specs. */
export interface WalPositionSources {
  /** The primary's WAL insert position: at or past every commit before the call. */
  primary(): Promise<WalPosition>;
  /** What the replica has replayed; null when it is no standby (it has it all). */
  replayed(): Promise<WalPosition | null>;
}

export interface ReadYourWritesOptions {
  readonly now?: () => number;
  /** A replay position read less than this ago is not asked again. */
  readonly replayMaxAgeMs?: number;
  /** Callers remembered at once; past it the oldest fold into one floor. */
  readonly maxCallers?: number;
}

/** Far enough that a replica asked every few ms costs nothing noticeable. */
export const REPLAY_MAX_AGE_MS = 5;
export const MAX_CALLERS = 10_000;
/** Past any position: what a server that is no standby has replayed. */
const EVERYTHING: WalPosition = 1n << 64n;

/** A write's position; undefined while it could not be read. */
interface Written {
  readonly position: WalPosition | undefined;
}

const NOTHING: Written = { position: 0n };

function later(a: Written, b: Written): Written {
  if (a.position === undefined) return a;
  if (b.position === undefined) return b;
  return a.position >= b.position ? a : b;
}

/**
 * Read-your-writes on a streaming replica: which reads of a caller the
 * replica may serve. Each caller's last write is remembered by its WAL
 * position until the replica has replayed it; until then that caller's
 * replica reads go to the primary, and everyone else's stay on the replica.
 * Positions, not time: a replica stopped for minutes still never serves a
 * read that would miss the caller's write.
 *
 * The memory is this process's: a caller whose next request reaches another
 * gateway is not known there (docs/scaling.md says so).
 */
export class ReadYourWrites {
  /** Callers with a write the replica may lack, oldest write first. */
  private readonly pending = new Map<string, Written>();
  /** The latest write of callers forgotten for room: every read waits for it. */
  private floor: Written = NOTHING;
  private readonly primary: SharedQuery<WalPosition>;
  private readonly replay: SharedQuery<WalPosition>;
  private readonly replayMaxAgeMs: number;
  private readonly maxCallers: number;

  constructor(
    sources: WalPositionSources,
    options: ReadYourWritesOptions = {},
  ) {
    const now = options.now ?? Date.now;
    this.primary = new SharedQuery(() => sources.primary(), now);
    this.replay = new SharedQuery(
      async () => (await sources.replayed()) ?? EVERYTHING,
      now,
    );
    this.replayMaxAgeMs = options.replayMaxAgeMs ?? REPLAY_MAX_AGE_MS;
    this.maxCallers = options.maxCallers ?? MAX_CALLERS;
  }

  /** Callers remembered now (for specs and metrics). */
  get remembered(): number {
    return this.pending.size;
  }

  /** `caller`'s write committed at or before `position`. */
  wrote(caller: string, position: WalPosition): void {
    this.remember(caller, { position });
  }

  /**
   * `caller`'s write has just committed, outside a transaction that could
   * say where: the primary's position from a query begun after it (writes
   * at once share one). If even that fails, the caller reads from the
   * primary until a position is known again.
   */
  async wroteNow(caller: string): Promise<void> {
    let position: WalPosition | undefined;
    try {
      position = await this.primary.fresh();
    } catch {
      position = undefined;
    }
    this.remember(caller, { position });
  }

  /**
   * Whether the replica has replayed `caller`'s last write, so it may serve
   * its read. Without a remembered write: yes, with no query. Otherwise the
   * replica's replay position, asked at most every `replayMaxAgeMs` by one
   * query shared by every read waiting for it. A replica that cannot say:
   * no (the primary has everything).
   */
  async replicaServes(caller: string): Promise<boolean> {
    const entry = this.pending.get(caller);
    const needed = entry ? later(entry, this.floor) : this.floor;
    if (needed.position === 0n) return true;
    try {
      const position = needed.position ?? (await this.resolve(caller, entry));
      const last = this.replay.last?.value ?? 0n;
      const replayed =
        last >= position ? last : await this.replay.recent(this.replayMaxAgeMs);
      if (replayed < position) return false;
      this.settle(caller, replayed);
      return true;
    } catch {
      return false;
    }
  }

  private remember(caller: string, written: Written): void {
    const previous = this.pending.get(caller);
    // Deleted first, so that the map stays in order of the latest writes.
    this.pending.delete(caller);
    this.pending.set(caller, previous ? later(previous, written) : written);
    this.trim();
  }

  /**
   * A write whose position was not known lies before any position read
   * from now on: that one stands for it (kept if nothing changed meanwhile).
   */
  private async resolve(
    caller: string,
    entry: Written | undefined,
  ): Promise<WalPosition> {
    const floor = this.floor;
    const position = await this.primary.fresh();
    if (entry?.position === undefined && this.pending.get(caller) === entry)
      this.pending.set(caller, { position });
    if (this.floor === floor && floor.position === undefined)
      this.floor = { position };
    return position;
  }

  private settle(caller: string, replayed: WalPosition): void {
    const entry = this.pending.get(caller);
    if (entry?.position !== undefined && entry.position <= replayed)
      this.pending.delete(caller);
    if (this.floor.position !== undefined && this.floor.position <= replayed)
      this.floor = NOTHING;
  }

  /**
   * Drops the oldest writes the replica is known to have replayed, and
   * past `maxCallers` the oldest of all, raising the floor to them: memory
   * stays bounded and no forgotten caller misses its write.
   */
  private trim(): void {
    const replayed = this.replay.last?.value ?? 0n;
    for (const [caller, entry] of this.pending) {
      const done = entry.position !== undefined && entry.position <= replayed;
      if (!done && this.pending.size <= this.maxCallers) return;
      this.pending.delete(caller);
      if (!done) this.floor = later(this.floor, entry);
    }
  }
}
