import { isJsonObject } from '../sentry-event/event-json';
import { ZipError, readZip } from './zip';

/** One file of an artifact bundle, as its manifest describes it. */
export interface BundleFile {
  /** `source_map`, `minified_source`, `source`, ... (the manifest's `type`). */
  readonly type: string;
  /** `~/static/app.min.js`: where the file is served, `~` for scheme and host. */
  readonly url: string;
  /** Lowercase UUID, or null (legacy uploads). */
  readonly debugId: string | null;
  /** The `sourcemap` header: the map of a minified source, relative to it. */
  readonly sourcemap: string | null;
  readonly content: Buffer;
}

export interface ArtifactBundle {
  /** The manifest's `debug_id` (sentry-cli's "Bundle ID"). */
  readonly bundleId: string | null;
  readonly release: string | null;
  readonly dist: string | null;
  readonly files: readonly BundleFile[];
}

/** A bundle that cannot be stored; the message is the assemble `detail`. */
export class ArtifactBundleError extends Error {}

/** A UUID, dashes optional, maybe with Sentry's `-<appendix>` (ignored). */
const DEBUG_ID =
  /^([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})(?:-[0-9a-f]{1,8})?$/i;
const MAX_URL = 2_048;
const MAX_NAME = 200;

/** A debug id in its canonical form (lowercase, dashed), else null. */
export function normalizeDebugId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = DEBUG_ID.exec(value.trim());
  return match ? match.slice(1, 6).join('-').toLowerCase() : null;
}

function header(headers: unknown, name: string): string | null {
  if (!isJsonObject(headers)) return null;
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  return null;
}

function shortText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && value.length <= MAX_NAME
    ? value
    : null;
}

/**
 * Reads sentry-cli's artifact bundle: a zip with `manifest.json` naming
 * each file's type, URL and headers (`debug-id`, `sourcemap`).
 */
export function parseArtifactBundle(
  zip: Buffer,
  maxTotalBytes: number,
): ArtifactBundle {
  let entries: Map<string, Buffer>;
  try {
    entries = readZip(zip, maxTotalBytes);
  } catch (error) {
    if (error instanceof ZipError)
      throw new ArtifactBundleError(
        `Invalid artifact bundle: ${error.message}`,
      );
    throw error;
  }
  const manifestBytes = entries.get('manifest.json');
  if (!manifestBytes)
    throw new ArtifactBundleError('Invalid artifact bundle: no manifest.json');
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8'));
  } catch {
    throw new ArtifactBundleError(
      'Invalid artifact bundle: manifest.json is not JSON',
    );
  }
  if (!isJsonObject(manifest) || !isJsonObject(manifest['files']))
    throw new ArtifactBundleError(
      'Invalid artifact bundle: manifest.json has no files',
    );
  const files: BundleFile[] = [];
  for (const [path, info] of Object.entries(manifest['files'])) {
    if (!isJsonObject(info)) continue;
    const content = entries.get(path);
    const url = info['url'];
    const type = info['type'];
    if (!content)
      throw new ArtifactBundleError(
        `Invalid artifact bundle: ${path} is in the manifest but not in the archive`,
      );
    if (typeof url !== 'string' || url === '' || url.length > MAX_URL)
      throw new ArtifactBundleError(
        `Invalid artifact bundle: ${path} has no valid url`,
      );
    files.push({
      type: typeof type === 'string' && type ? type.slice(0, 40) : 'source',
      url,
      debugId: normalizeDebugId(header(info['headers'], 'debug-id')),
      sourcemap:
        header(info['headers'], 'sourcemap')?.slice(0, MAX_URL) ?? null,
      content,
    });
  }
  return {
    bundleId: normalizeDebugId(manifest['debug_id']),
    release: shortText(manifest['release']),
    dist: shortText(manifest['dist']),
    files,
  };
}
