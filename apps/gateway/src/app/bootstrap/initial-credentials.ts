import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { INestApplicationContext } from '@nestjs/common';

import type { ContextEntry } from '../contexts/context-catalog';

export const INITIAL_CREDENTIALS_FILE = 'initial-credentials.json';

/** What first boot generated, per context: `{ marketplace: {...}, "error-tracking": {...} }`. */
export type InitialCredentials = Record<
  string,
  Readonly<Record<string, string>>
>;

/**
 * Runs every served context's first-boot work (ensure the configured
 * credentials exist; on an empty database, generate demo ones) and returns
 * what was generated. Contexts do their part under a database lock, so
 * replicas booting together generate one set.
 */
export async function bootstrapContexts(
  app: INestApplicationContext,
  entries: readonly ContextEntry[],
): Promise<InitialCredentials> {
  const generated: InitialCredentials = {};
  for (const entry of entries) {
    const values = await entry.bootstrap?.(app);
    if (values && Object.keys(values).length > 0)
      generated[entry.name] = values;
  }
  return generated;
}

/**
 * Adds generated credentials to `DATA_DIR/initial-credentials.json`, readable
 * by the owner only, and returns its path. Secrets go to this file, never to
 * the log.
 */
export async function recordInitialCredentials(
  dataDir: string,
  credentials: InitialCredentials,
): Promise<string> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, INITIAL_CREDENTIALS_FILE);
  let existing: InitialCredentials = {};
  try {
    existing = JSON.parse(await readFile(path, 'utf8')) as InitialCredentials;
  } catch {
    existing = {};
  }
  const merged = { ...existing, ...credentials };
  await writeFile(path, `${JSON.stringify(merged, null, 2)}\n`, {
    mode: 0o600,
  });
  // writeFile's mode applies only when it creates the file.
  await chmod(path, 0o600);
  return path;
}
