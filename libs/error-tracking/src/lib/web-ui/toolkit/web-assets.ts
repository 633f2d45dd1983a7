import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WebAsset {
  readonly body: Buffer;
  /**
   * Hash of the content, the URLs' `?v=`: the same on every replica and
   * across restarts, new whenever the file changes (so it may be cached for
   * a year).
   */
  readonly version: string;
}

function asset(name: string): WebAsset {
  // `assets/` beside this file: the build copies it into dist/.
  const body = readFileSync(join(__dirname, 'assets', name));
  const version = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { body, version };
}

/** The UI's one stylesheet and one script, read once. */
export const WEB_ASSETS = { css: asset('ui.css'), js: asset('ui.js') };
