import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

import { ConfigurationError } from './env.schema';

/**
 * Loads `.env` from the working directory into `process.env` when there is
 * one, with Node's own parser (`process.loadEnvFile`, Node 20.12+): a
 * variable already set in the process environment keeps its value. Returns
 * the file's path, or undefined when there is none.
 */
export function loadDotEnv(cwd = process.cwd()): string | undefined {
  const file = resolve(cwd, '.env');
  if (!existsSync(file)) return undefined;
  try {
    process.loadEnvFile(file);
  } catch (error) {
    throw new ConfigurationError([
      `${file} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    ]);
  }
  return file;
}
