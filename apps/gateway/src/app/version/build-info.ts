import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface BuildInfo {
  readonly version: string;
  /** The git commit the build was made from, or `unknown`. */
  readonly commit: string;
}

let cached: BuildInfo | undefined;

/**
 * What this build is: `dist/build-info.json`, written by tools/build; when
 * running from sources (tests), package.json's version and an `unknown`
 * commit. Found by walking up from this file, which sits under `dist/` once
 * built.
 */
export function buildInfo(): BuildInfo {
  if (cached) return cached;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const baked = join(dir, 'build-info.json');
    if (existsSync(baked)) {
      cached = JSON.parse(readFileSync(baked, 'utf8')) as BuildInfo;
      return cached;
    }
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        version: string;
      };
      cached = { version, commit: 'unknown' };
      return cached;
    }
    if (dirname(dir) === dir) {
      cached = { version: 'unknown', commit: 'unknown' };
      return cached;
    }
  }
}
