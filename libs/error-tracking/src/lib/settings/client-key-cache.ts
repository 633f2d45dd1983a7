import { Injectable } from '@nestjs/common';

import { CollectorKeysRepository } from './collector-keys.repository';
import type { CollectorKey } from './collector-keys.repository';

interface Entry {
  readonly value: Promise<CollectorKey | null>;
  expires: number;
  /** Set once the lookup finished, so eviction can decide synchronously. */
  settled?: CollectorKey | null;
  /** A found key past its TTL being read again. */
  refreshing?: boolean;
}

/** How long a found key is trusted before it is read again. */
const HIT_TTL_MS = 60_000;
/** How long an unknown key is remembered (floods of bad keys). */
const MISS_TTL_MS = 1_000;
const MAX_ENTRIES = 50_000;

/**
 * Public key -> project, cached. Deleting a key or changing a project's
 * setting evicts the project's keys in this process at once; other replicas
 * are protected by the flush, which re-checks every key inside its
 * transaction (so a deleted key's events are refused everywhere at once;
 * only the early rejection may take up to HIT_TTL_MS to reach other
 * replicas, which answer 403 after the flush instead of before it).
 */
@Injectable()
export class ClientKeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly keys: CollectorKeysRepository) {}

  lookup(publicKey: string, now = Date.now()): Promise<CollectorKey | null> {
    const cached = this.entries.get(publicKey);
    if (cached && cached.expires > now) return cached.value;
    if (cached?.settled) {
      // A key found before is served while it is read again, and kept
      // when that read fails: the collector spools while the database is
      // away, for the keys it has seen (the flush re-checks every key).
      if (!cached.refreshing) this.refresh(publicKey, cached, now);
      return cached.value;
    }
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const value = this.load(publicKey);
    const entry: Entry = { value, expires: now + MISS_TTL_MS };
    this.entries.set(publicKey, entry);
    value.then(
      (key) => {
        entry.settled = key;
        if (key) entry.expires = now + HIT_TTL_MS;
      },
      () => {
        if (this.entries.get(publicKey) === entry)
          this.entries.delete(publicKey);
      },
    );
    return value;
  }

  private refresh(publicKey: string, stale: Entry, now: number): void {
    stale.refreshing = true;
    this.load(publicKey).then(
      (key) => {
        // Evicted meanwhile (key deleted, setting changed): leave it gone.
        if (this.entries.get(publicKey) !== stale) return;
        this.entries.set(publicKey, {
          value: Promise.resolve(key),
          settled: key,
          expires: now + (key ? HIT_TTL_MS : MISS_TTL_MS),
        });
      },
      () => {
        stale.refreshing = false;
        stale.expires = now + MISS_TTL_MS;
      },
    );
  }

  /** Forgets every key of a project (key deleted, setting changed), at once. */
  evictProject(projectId: number): void {
    for (const [publicKey, entry] of this.entries) {
      // Unsettled lookups may predate the change: forget them too.
      if (entry.settled === undefined || entry.settled?.projectId === projectId)
        this.entries.delete(publicKey);
    }
  }

  /** Forgets one key (created, so a cached miss must go). */
  evictKey(publicKey: string): void {
    this.entries.delete(publicKey);
  }

  private load(publicKey: string): Promise<CollectorKey | null> {
    if (publicKey.length > 255) return Promise.resolve(null);
    return this.keys.findActive(publicKey);
  }
}
