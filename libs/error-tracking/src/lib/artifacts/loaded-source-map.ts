import {
  AnyMap,
  decodedMappings,
  originalPositionFor,
  sourceContentFor,
} from '@jridgewell/trace-mapping';
import type { TraceMap } from '@jridgewell/trace-mapping';

/** Decoded mappings take several times the JSON's size in memory. */
const MEMORY_PER_JSON_BYTE = 4;

const VLQ_MAPPINGS = /^[A-Za-z0-9+/,;]*$/;

/** A map that cannot be used, and why (recorded on the event). */
export class BrokenSourceMapError extends Error {}

export interface OriginalPosition {
  /** The source as the map names it (`../src/validate.js`). */
  readonly source: string;
  /** 1-based. */
  readonly line: number;
  /** 0-based. */
  readonly column: number;
  /** The original name at this position (the callee, at a call site). */
  readonly name: string | null;
}

/**
 * A parsed, checked source map, with its source lines split on first use.
 * `mapRef` is where the map is relative to the minified file (the
 * `sourcemap` header), so sources resolve against the URL the file was
 * served from.
 */
export class LoadedSourceMap {
  readonly estimatedBytes: number;
  private readonly lines = new Map<string, string[] | null>();

  private constructor(
    private readonly map: TraceMap,
    readonly mapRef: string,
    jsonBytes: number,
  ) {
    this.estimatedBytes = jsonBytes * MEMORY_PER_JSON_BYTE;
  }

  /** Parses and checks a map (throws `BrokenSourceMapError` with the reason). */
  static parse(content: Buffer, mapRef: string): LoadedSourceMap {
    let json: unknown;
    try {
      json = JSON.parse(content.toString('utf8'));
    } catch {
      throw new BrokenSourceMapError('the source map is not valid JSON');
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw new BrokenSourceMapError('the source map is not a JSON object');
    const version = (json as { version?: unknown }).version;
    if (version !== 3)
      throw new BrokenSourceMapError(
        `unsupported source map version ${JSON.stringify(version)}`,
      );
    const mappings = (json as { mappings?: unknown }).mappings;
    // The decoder skips what is not base64 VLQ: refuse such maps outright.
    if (typeof mappings === 'string' && !VLQ_MAPPINGS.test(mappings))
      throw new BrokenSourceMapError('the mappings are corrupt');
    let map: TraceMap;
    try {
      map = new AnyMap(json as never);
      checkMappings(map);
    } catch (error) {
      if (error instanceof BrokenSourceMapError) throw error;
      throw new BrokenSourceMapError(
        `the source map cannot be read: ${(error as Error).message}`,
      );
    }
    return new LoadedSourceMap(map, mapRef, content.length);
  }

  /** The original position of a 1-based line and 0-based column, if mapped. */
  originalPosition(line: number, column: number): OriginalPosition | null {
    const found = originalPositionFor(this.map, { line, column });
    if (found.source === null || found.line === null) return null;
    return {
      source: found.source,
      line: found.line,
      column: found.column,
      name: found.name,
    };
  }

  /** The lines of a source from `sourcesContent`, or null when not included. */
  sourceLines(source: string): string[] | null {
    let lines = this.lines.get(source);
    if (lines === undefined) {
      const content = sourceContentFor(this.map, source);
      lines = content === null ? null : content.split(/\r?\n/);
      this.lines.set(source, lines);
    }
    return lines;
  }
}

/** Decodes every mapping now, so a corrupt map is refused once, not per frame. */
function checkMappings(map: TraceMap): void {
  const sources = map.sources.length;
  const names = map.names.length;
  for (const line of decodedMappings(map))
    for (const segment of line) {
      // Typed as 1, 4 or 5 numbers; a corrupt string decodes to other lengths.
      const length: number = segment.length;
      if (
        length === 2 ||
        length === 3 ||
        !segment.every((n) => Number.isInteger(n) && n >= 0)
      )
        throw new BrokenSourceMapError('the mappings are corrupt');
      if (segment.length >= 4 && (segment[1] as number) >= sources)
        throw new BrokenSourceMapError(
          'the mappings refer to a source the map does not list',
        );
      if (segment.length === 5 && (segment[4] as number) >= names)
        throw new BrokenSourceMapError(
          'the mappings refer to a name the map does not list',
        );
    }
}
