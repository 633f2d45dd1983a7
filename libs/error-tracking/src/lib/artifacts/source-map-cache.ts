import type { LoadedSourceMap } from './loaded-source-map';

/** What a lookup found: a usable map, a broken one, or nothing. */
export type SourceMapLookup =
  | { readonly kind: 'map'; readonly map: LoadedSourceMap }
  | { readonly kind: 'broken'; readonly reason: string }
  | { readonly kind: 'missing' };

interface Entry {
  readonly value: SourceMapLookup;
  readonly bytes: number;
  /** Epoch ms after which the entry is stale (Infinity for found maps). */
  readonly expiresAt: number;
}

/** What a remembered "broken" or "missing" costs in the byte budget. */
const SMALL_ENTRY_BYTES = 256;

/**
 * Parsed source maps by lookup key, least recently used first out, bounded
 * by an estimate of their memory. Stored files never change (a bundle is
 * immutable), so found maps stay until evicted; misses and broken maps are
 * forgotten after `negativeTtlMs`, so a map uploaded after an event is used
 * for the next ones.
 */
export class SourceMapCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly negativeTtlMs: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  get(key: string, now: number): SourceMapLookup | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.delete(key, entry);
      return undefined;
    }
    // Re-insert: Map iteration order is the recency order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: SourceMapLookup, now: number): void {
    const bytes =
      value.kind === 'map' ? value.map.estimatedBytes : SMALL_ENTRY_BYTES;
    // A map larger than the whole budget is used once, never cached.
    if (bytes > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous) this.delete(key, previous);
    const expiresAt =
      value.kind === 'map'
        ? Number.POSITIVE_INFINITY
        : now + this.negativeTtlMs;
    this.entries.set(key, { value, bytes, expiresAt });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest, entry);
    }
  }

  private delete(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
