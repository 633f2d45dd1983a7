import { Inject, Injectable, Logger } from '@nestjs/common';
import { isConnectionFailure } from '@quitanda/database';
import { CLOCK, within } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { MIB } from '../common/error-tracking.constants';
import type { JsonObject } from '../sentry-event/event-json';
import { ArtifactsRepository } from './artifacts.repository';
import type {
  ArtifactIndexEntry,
  EventArtifactsQuery,
} from './artifacts.repository';
import { BrokenSourceMapError, LoadedSourceMap } from './loaded-source-map';
import { SourceMapCache } from './source-map-cache';
import type { SourceMapLookup } from './source-map-cache';
import { applyResolution, planResolution } from './symbolicate';
import type { SourceMapTarget } from './symbolicate';

/** Memory (estimated) the parsed maps of this process may hold. */
export const SOURCE_MAP_CACHE_BYTES = 128 * MIB;
/** How long a missing or broken map is remembered before asking again. */
export const NEGATIVE_TTL_MS = 10_000;

/** The last path segment of a `~/...` URL (where a map sits beside its file). */
function basename(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}

/** `~/static/a.js` + `a.js.map` -> `~/static/a.js.map` (absolute refs to their `~/` form). */
function resolveTilde(ref: string, fileUrl: string): string {
  const base = new URL(fileUrl.replace(/^~/, 'http://tilde.invalid'));
  const target = new URL(ref, base);
  return target.host === 'tilde.invalid' || /^[a-z][a-z0-9+.-]*:/i.test(ref)
    ? `~${target.pathname}${target.search}`
    : ref;
}

/** Where a target's map is stored: the file, and its ref from the minified file. */
interface MapLocation {
  readonly id: number;
  readonly mapRef: string;
}

/** An event's candidate files, indexed the ways its targets look them up. */
class ArtifactIndex {
  private readonly byDebugId = new Map<
    string,
    { map?: ArtifactIndexEntry; minified?: ArtifactIndexEntry }
  >();
  private readonly byUrl = new Map<string, ArtifactIndexEntry>();

  /** `entries` newest first: the first one seen of a kind wins. */
  constructor(entries: readonly ArtifactIndexEntry[]) {
    for (const entry of entries) {
      if (entry.debugId) {
        const found = this.byDebugId.get(entry.debugId) ?? {};
        if (entry.type === 'source_map') found.map ??= entry;
        else found.minified ??= entry;
        this.byDebugId.set(entry.debugId, found);
      }
      if (entry.inRelease && !this.byUrl.has(entry.url))
        this.byUrl.set(entry.url, entry);
    }
  }

  locate(target: SourceMapTarget): MapLocation | null {
    if (target.kind === 'debug-id') {
      const found = this.byDebugId.get(target.debugId);
      if (!found?.map) return null;
      return {
        id: found.map.id,
        mapRef: found.minified?.sourcemap ?? basename(found.map.url),
      };
    }
    const url = target.urls.find((u) => this.byUrl.has(u));
    const minified = url === undefined ? undefined : this.byUrl.get(url);
    if (!minified) return null;
    const mapRef = minified.sourcemap ?? `${basename(minified.url)}.map`;
    let mapUrl: string;
    try {
      mapUrl = resolveTilde(mapRef, minified.url);
    } catch {
      return null;
    }
    const map = this.byUrl.get(mapUrl);
    return map ? { id: map.id, mapRef } : null;
  }
}

/**
 * The maps an event needs could not be read now: the database is not
 * reachable, or did not answer within the caller's wait. Nothing about the
 * maps is remembered, so the event can be resolved later (the collector
 * spools it and the drainer resolves it).
 */
export class SourceMapsUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The source maps could not be read now', { cause });
    this.name = 'SourceMapsUnavailableError';
  }
}

/**
 * Resolves minified JavaScript frames through uploaded source maps before
 * an event is grouped. Parsed maps are cached in process (bounded), so a
 * frame costs no database round trip; what an event's kept frames need and
 * the cache lacks is looked up in one query (and the maps found read in a
 * second), however many distinct frames it carries, and concurrent events
 * needing the same map share one read. Never throws for a map: a missing
 * or broken one is recorded on the event. Throws only when the database
 * cannot be reached: the connection failure itself, or with `waitMs` a
 * `SourceMapsUnavailableError` (for that failure, or the wait passing).
 */
@Injectable()
export class SourceMapResolver {
  private readonly logger = new Logger('ErrorTrackingSourceMaps');
  private readonly cache = new SourceMapCache(
    SOURCE_MAP_CACHE_BYTES,
    NEGATIVE_TTL_MS,
  );
  private readonly loading = new Map<string, Promise<SourceMapLookup>>();

  constructor(
    private readonly artifacts: ArtifactsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Maps parsed and held now (for tests and metrics). */
  get cachedMaps(): number {
    return this.cache.size;
  }

  /**
   * The event with frames resolved where a map is known (else as given).
   * `waitMs` bounds the wait for maps the cache lacks (0: do not look them
   * up); only events that need such a lookup arm a timer.
   */
  async resolve(
    raw: JsonObject,
    projectId: number,
    waitMs?: number,
  ): Promise<JsonObject> {
    const plan = planResolution(raw);
    if (!plan) return raw;
    const now = this.clock.now().getTime();
    const lookups = new Map<string, SourceMapLookup>();
    const inFlight = new Map<string, Promise<SourceMapLookup>>();
    const toLoad = new Map<string, SourceMapTarget>();
    for (const [key, target] of plan.targets) {
      const cacheKey = `${projectId}\n${key}`;
      const cached = this.cache.get(cacheKey, now);
      const loading = cached ? undefined : this.loading.get(cacheKey);
      if (cached) lookups.set(key, cached);
      else if (loading) inFlight.set(key, loading);
      else toLoad.set(key, target);
    }
    if (inFlight.size > 0 || toLoad.size > 0) {
      // Given up before any wait is made: a wait made and then abandoned
      // would reject unhandled when the lookup fails.
      if (waitMs !== undefined && waitMs <= 0)
        throw new SourceMapsUnavailableError();
      const waits = [...inFlight].map(([key, loading]) =>
        loading.then((lookup) => {
          lookups.set(key, lookup);
        }),
      );
      if (toLoad.size > 0) waits.push(this.loadAll(projectId, toLoad, lookups));
      await boundedWait(Promise.all(waits), waitMs);
    }
    return applyResolution(raw, plan, lookups);
  }

  /** Loads `targets` in one lookup, sharing it with concurrent events. */
  private async loadAll(
    projectId: number,
    targets: ReadonlyMap<string, SourceMapTarget>,
    into: Map<string, SourceMapLookup>,
  ): Promise<void> {
    const batch = this.load(projectId, targets);
    const cacheKeys = [...targets.keys()].map((key) => {
      const cacheKey = `${projectId}\n${key}`;
      const shared = batch.then((found) => found.get(key) ?? MISSING);
      // Its failure reaches the events that wait for it; none may be left.
      shared.catch(() => undefined);
      this.loading.set(cacheKey, shared);
      return [key, cacheKey] as const;
    });
    try {
      const found = await batch;
      const now = this.clock.now().getTime();
      for (const [key, cacheKey] of cacheKeys) {
        const lookup = found.get(key) ?? MISSING;
        this.cache.set(cacheKey, lookup, now);
        into.set(key, lookup);
      }
    } finally {
      for (const [, cacheKey] of cacheKeys) this.loading.delete(cacheKey);
    }
  }

  private async load(
    projectId: number,
    targets: ReadonlyMap<string, SourceMapTarget>,
  ): Promise<Map<string, SourceMapLookup>> {
    const found = new Map<string, SourceMapLookup>();
    try {
      const index = new ArtifactIndex(
        await this.artifacts.eventArtifacts(projectId, eventQuery(targets)),
      );
      const locations = new Map<string, MapLocation>();
      for (const [key, target] of targets) {
        const location = index.locate(target);
        if (location) locations.set(key, location);
        else found.set(key, MISSING);
      }
      if (locations.size === 0) return found;
      const contents = await this.artifacts.artifactContents(projectId, [
        ...new Set([...locations.values()].map((l) => l.id)),
      ]);
      // Several targets may name one map: it is parsed once.
      const parsed = new Map<string, SourceMapLookup>();
      for (const [key, { id, mapRef }] of locations) {
        const content = contents.get(id);
        const parsedKey = `${id}\n${mapRef}`;
        let lookup = parsed.get(parsedKey);
        if (!lookup) {
          lookup = content ? parseMap(content, mapRef) : MISSING;
          parsed.set(parsedKey, lookup);
        }
        found.set(key, lookup);
      }
      return found;
    } catch (error) {
      // Unreachable: the caller spools the event and resolves it later.
      if (isConnectionFailure(error)) throw error;
      // Any other failure must not fail ingestion: frames stay minified.
      this.logger.warn({ err: error }, 'Source map lookup failed');
      const unreadable: SourceMapLookup = {
        kind: 'broken',
        reason: 'the source map could not be read',
      };
      return new Map([...targets.keys()].map((key) => [key, unreadable]));
    }
  }
}

const MISSING: SourceMapLookup = { kind: 'missing' };

/** `work`, or a `SourceMapsUnavailableError` once `waitMs` passed first. */
async function boundedWait(
  work: Promise<unknown>,
  waitMs: number | undefined,
): Promise<void> {
  if (waitMs === undefined) {
    await work;
    return;
  }
  try {
    await within(work, waitMs, () => new SourceMapsUnavailableError());
  } catch (error) {
    if (isConnectionFailure(error)) throw new SourceMapsUnavailableError(error);
    throw error;
  }
}

/** What one event's targets look up: their debug ids, release and URLs. */
function eventQuery(
  targets: ReadonlyMap<string, SourceMapTarget>,
): EventArtifactsQuery {
  const debugIds: string[] = [];
  const urls = new Set<string>();
  let release: string | null = null;
  let dist: string | null = null;
  for (const target of targets.values()) {
    if (target.kind === 'debug-id') debugIds.push(target.debugId);
    else {
      // One event has one release and dist.
      release = target.release;
      dist = target.dist;
      for (const url of target.urls) urls.add(url);
    }
  }
  return { debugIds, release, dist, urls: [...urls] };
}

function parseMap(content: Buffer, mapRef: string): SourceMapLookup {
  try {
    return { kind: 'map', map: LoadedSourceMap.parse(content, mapRef) };
  } catch (error) {
    if (error instanceof BrokenSourceMapError)
      return { kind: 'broken', reason: error.message };
    throw error;
  }
}
