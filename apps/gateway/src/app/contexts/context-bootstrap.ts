import type { INestApplicationContext } from '@nestjs/common';

import type {
  CredentialChanges,
  InitialCredentials,
} from '../bootstrap/initial-credentials';
import type { ContextEntry } from './context-entry';

/**
 * Runs every served context's first-boot work (ensure the configured
 * credentials exist; on an empty database, generate demo ones) and returns
 * what was generated and which recorded credentials no longer work.
 * Contexts do their part under a database lock, so replicas booting
 * together generate one set.
 */
export async function bootstrapContexts(
  app: INestApplicationContext,
  entries: readonly ContextEntry[],
): Promise<CredentialChanges> {
  const generated: InitialCredentials = {};
  const retired: Record<string, readonly string[]> = {};
  for (const entry of entries) {
    const values = await entry.bootstrap?.(app);
    if (values && Object.keys(values).length > 0)
      generated[entry.name] = values;
    const gone = await entry.retiredCredentials?.(app);
    if (gone && gone.length > 0) retired[entry.name] = gone;
  }
  return { generated, retired };
}
