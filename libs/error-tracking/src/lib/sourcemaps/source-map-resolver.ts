import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { MIB } from '../error-tracking.constants';
import type { JsonObject } from '../sentry-event/event-json';
import { ArtifactsRepository } from './artifacts.repository';
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

/**
 * Resolves minified JavaScript frames through uploaded source maps before
 * an event is grouped. Parsed maps are cached in process (bounded), so a
 * frame costs no database round trip; a map is read once per process, and
 * one lookup serves every frame and event that needs it. Never throws for a
 * map: a missing or broken one is recorded on the event.
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

  /** The event with frames resolved where a map is known (else as given). */
  async resolve(raw: JsonObject, projectId: number): Promise<JsonObject> {
    const plan = planResolution(raw);
    if (!plan) return raw;
    const lookups = new Map<string, SourceMapLookup>();
    for (const [key, target] of plan.targets)
      lookups.set(key, await this.lookup(projectId, key, target));
    return applyResolution(raw, plan, lookups);
  }

  private async lookup(
    projectId: number,
    key: string,
    target: SourceMapTarget,
  ): Promise<SourceMapLookup> {
    const cacheKey = `${projectId}\n${key}`;
    const cached = this.cache.get(cacheKey, this.clock.now().getTime());
    if (cached) return cached;
    let pending = this.loading.get(cacheKey);
    if (!pending) {
      pending = this.load(projectId, target)
        .then((lookup) => {
          this.cache.set(cacheKey, lookup, this.clock.now().getTime());
          return lookup;
        })
        .finally(() => this.loading.delete(cacheKey));
      this.loading.set(cacheKey, pending);
    }
    return pending;
  }

  private async load(
    projectId: number,
    target: SourceMapTarget,
  ): Promise<SourceMapLookup> {
    try {
      const found =
        target.kind === 'debug-id'
          ? await this.byDebugId(projectId, target.debugId)
          : await this.byRelease(projectId, target);
      if (!found) return { kind: 'missing' };
      return {
        kind: 'map',
        map: LoadedSourceMap.parse(found.content, found.mapRef),
      };
    } catch (error) {
      if (error instanceof BrokenSourceMapError)
        return { kind: 'broken', reason: error.message };
      // The database failing here must not fail ingestion: frames stay minified.
      this.logger.warn({ err: error }, 'Source map lookup failed');
      return { kind: 'broken', reason: 'the source map could not be read' };
    }
  }

  private async byDebugId(
    projectId: number,
    debugId: string,
  ): Promise<{ content: Buffer; mapRef: string } | null> {
    const found = await this.artifacts.sourceMapByDebugId(projectId, debugId);
    if (!found?.map.content) return null;
    return {
      content: found.map.content,
      mapRef: found.minified?.sourcemap ?? basename(found.map.url),
    };
  }

  private async byRelease(
    projectId: number,
    target: SourceMapTarget & { kind: 'release' },
  ): Promise<{ content: Buffer; mapRef: string } | null> {
    const minified = await this.artifacts.artifactByUrl(
      projectId,
      target.release,
      target.dist,
      target.urls,
      { withContent: false },
    );
    if (!minified) return null;
    const mapRef = minified.sourcemap ?? `${basename(minified.url)}.map`;
    let mapUrl: string;
    try {
      mapUrl = resolveTilde(mapRef, minified.url);
    } catch {
      return null;
    }
    const map = await this.artifacts.artifactByUrl(
      projectId,
      target.release,
      target.dist,
      [mapUrl],
      { withContent: true },
    );
    return map?.content ? { content: map.content, mapRef } : null;
  }
}
