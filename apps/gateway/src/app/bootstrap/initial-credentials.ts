import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

export const INITIAL_CREDENTIALS_FILE = 'initial-credentials.json';

/** What first boot generated, per context: `{ marketplace: {...}, "error-tracking": {...} }`. */
export type InitialCredentials = Record<
  string,
  Readonly<Record<string, string>>
>;

/** What a start generated, and the recorded names that no longer work. */
export interface CredentialChanges {
  readonly generated: InitialCredentials;
  readonly retired: Readonly<Record<string, readonly string[]>>;
}

/** The recorded credentials of `file`; none when it is missing or unreadable. */
export async function readInitialCredentials(
  file: string,
): Promise<InitialCredentials | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as InitialCredentials;
  } catch {
    return undefined;
  }
}

/**
 * Brings `DATA_DIR/initial-credentials.json` up to date: adds what was
 * generated, removes what no longer works (the file itself once nothing in
 * it does), and leaves it untouched when nothing changed. Readable by the
 * owner only. Secrets go to this file, never to the log.
 */
export async function recordInitialCredentials(
  dataDir: string,
  changes: CredentialChanges,
): Promise<void> {
  const path = join(dataDir, INITIAL_CREDENTIALS_FILE);
  const existing = (await readInitialCredentials(path)) ?? {};
  const updated: InitialCredentials = {};
  for (const [context, values] of Object.entries({
    ...existing,
    ...changes.generated,
  })) {
    const retired = new Set(changes.retired[context]);
    const kept = Object.entries(values).filter(([name]) => !retired.has(name));
    if (kept.length > 0) updated[context] = Object.fromEntries(kept);
  }
  if (isDeepStrictEqual(updated, existing)) return;
  if (Object.keys(updated).length === 0) {
    await rm(path, { force: true });
    return;
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(updated, null, 2)}\n`, {
    mode: 0o600,
  });
  // writeFile's mode applies only when it creates the file.
  await chmod(path, 0o600);
}
