import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { GatewayConfig } from '../config/gateway-config';

/** Secrets the gateway generated for itself, beside the initial credentials. */
export const GENERATED_SECRETS_FILE = 'secrets.json';

type Secrets = Record<string, string>;

async function readSecrets(path: string): Promise<Secrets> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${path} cannot be read: ${(error as Error).message}`);
  }
}

/**
 * The secret `name` of `DATA_DIR/secrets.json`, generated (32 random bytes)
 * and added to the owner-only file the first time, as GitLab generates
 * gitlab-secrets.json. `generated` tells whether this call made it.
 */
async function generatedSecret(
  dataDir: string,
  name: string,
): Promise<{ value: string; generated: boolean; file: string }> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, GENERATED_SECRETS_FILE);
  const secrets = await readSecrets(file);
  const known = secrets[name];
  if (known) return { value: known, generated: false, file };
  const value = randomBytes(32).toString('base64url');
  await writeFile(
    file,
    `${JSON.stringify({ ...secrets, [name]: value }, null, 2)}\n`,
    { mode: 0o600 },
  );
  // writeFile's mode applies only when it creates the file.
  await chmod(file, 0o600);
  return { value, generated: true, file };
}

/**
 * The configuration with an alerts encryption key: ALERTS_ENCRYPTION_KEY,
 * else the one generated at first boot, so that webhook secret tokens work
 * on a default install. With several replicas the key must come from
 * configuration (each DATA_DIR would generate its own); the error-tracking
 * context refuses to start on a key that differs from the stored tokens'.
 */
export async function withAlertsKey(
  config: GatewayConfig,
): Promise<{ config: GatewayConfig; generatedIn?: string }> {
  if (config.alerts.encryptionKey || !config.contexts.has('error-tracking'))
    return { config };
  const secret = await generatedSecret(config.dataDir, 'alerts_encryption_key');
  return {
    config: {
      ...config,
      alerts: { ...config.alerts, encryptionKey: secret.value },
    },
    generatedIn: secret.generated ? secret.file : undefined,
  };
}
