import { Injectable } from '@nestjs/common';

import type { MarketplaceTx } from '../persistence/marketplace-database';
import { MarketplaceRepository } from '../persistence/marketplace-repository';
import type { AppCredentialAccess, AppRecord } from './app.types';

interface AppRow {
  app_key: string;
  name: string;
  environment_name: string;
  app_secret_digest: string;
  master_secret_digest: string;
  app_credential_access: AppCredentialAccess;
  signing_key: string;
  create_collections_on_write: boolean;
  created_at: Date;
}

const COLUMNS =
  'app_key, name, environment_name, app_secret_digest, master_secret_digest, app_credential_access, signing_key, create_collections_on_write, created_at';

function toApp(row: AppRow): AppRecord {
  return {
    appKey: row.app_key,
    name: row.name,
    environmentName: row.environment_name,
    appSecretDigest: row.app_secret_digest,
    masterSecretDigest: row.master_secret_digest,
    appCredentialAccess: row.app_credential_access,
    signingKey: row.signing_key,
    createCollectionsOnWrite: row.create_collections_on_write,
    createdAt: row.created_at,
  };
}

/**
 * Every table holding an app's rows: removing an app empties them all
 * (children first, the app last).
 */
const APP_TABLES = [
  'records',
  'record_tombstones',
  'record_unique_values',
  'file_chunks',
  'files',
  'collections',
  'user_tokens',
  'account_tokens',
  'account_mail',
  'account_mail_quiet',
  'mfa_authenticators',
  'mfa_recovery_codes',
  'mfa_sessions',
  'mfa_devices',
  'mfa_attempts',
  'login_attempts',
  'signup_counts',
  'business_logic_bindings',
  'flex_services',
  'users',
  'apps',
] as const;

/** Transaction-level advisory lock of the first boot ("MKTA"). */
const APP_BOOTSTRAP_LOCK_KEY = 0x4d_4b_54_41;

/** Apps (tenants) and their hashed secrets. */
@Injectable()
export class AppsRepository extends MarketplaceRepository {
  /**
   * Holds the first-boot lock until `tx` ends: replicas booting together
   * take turns, so they make one app.
   */
  async lockBootstrap(tx: MarketplaceTx): Promise<void> {
    await tx.rows('SELECT pg_advisory_xact_lock($1)', [APP_BOOTSTRAP_LOCK_KEY]);
  }

  /** Inserts the app with the collections of its definition (by name). */
  async insert(
    app: AppRecord,
    tx: MarketplaceTx = this.sql,
    collections: Readonly<Record<string, unknown>> = {},
  ): Promise<boolean> {
    const rows = await tx.rows(
      `INSERT INTO marketplace.apps (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (app_key) DO NOTHING RETURNING app_key`,
      [
        app.appKey,
        app.name,
        app.environmentName,
        app.appSecretDigest,
        app.masterSecretDigest,
        app.appCredentialAccess,
        app.signingKey,
        app.createCollectionsOnWrite,
        app.createdAt,
      ],
    );
    if (rows.length !== 1) return false;
    await tx.rows(
      `INSERT INTO marketplace.collections (app_key, name, settings, created_at, updated_at)
       SELECT $1, d.key, d.value, $3, $3 FROM jsonb_each($2::jsonb) d`,
      [app.appKey, JSON.stringify(collections), app.createdAt],
    );
    return true;
  }

  /** Sets the secrets (and the name, when given) of an existing app. */
  async updateSecrets(
    appKey: string,
    appSecretDigest: string,
    masterSecretDigest: string,
    name: string | undefined,
    tx: MarketplaceTx = this.sql,
  ): Promise<void> {
    await tx.rows(
      `UPDATE marketplace.apps SET app_secret_digest = $2, master_secret_digest = $3,
              name = COALESCE($4, name)
        WHERE app_key = $1`,
      [appKey, appSecretDigest, masterSecretDigest, name ?? null],
    );
  }

  /** Deletes the app and everything in it. */
  async remove(appKey: string, tx: MarketplaceTx): Promise<void> {
    for (const table of APP_TABLES)
      await tx.rows(`DELETE FROM marketplace.${table} WHERE app_key = $1`, [
        appKey,
      ]);
  }

  async setEnvironmentName(appKey: string, name: string): Promise<boolean> {
    const rows = await this.sql.rows(
      'UPDATE marketplace.apps SET environment_name = $2 WHERE app_key = $1 RETURNING 1',
      [appKey, name],
    );
    return rows.length === 1;
  }

  async setCreateCollectionsOnWrite(
    appKey: string,
    on: boolean,
  ): Promise<boolean> {
    const rows = await this.sql.rows(
      'UPDATE marketplace.apps SET create_collections_on_write = $2 WHERE app_key = $1 RETURNING 1',
      [appKey, on],
    );
    return rows.length === 1;
  }

  async find(
    appKey: string,
    tx: MarketplaceTx = this.sql,
  ): Promise<AppRecord | undefined> {
    const rows = await tx.rows<AppRow>(
      `SELECT ${COLUMNS} FROM marketplace.apps WHERE app_key = $1`,
      [appKey],
    );
    return rows[0] ? toApp(rows[0]) : undefined;
  }

  async list(): Promise<AppRecord[]> {
    const rows = await this.sql.rows<AppRow>(
      `SELECT ${COLUMNS} FROM marketplace.apps ORDER BY created_at, app_key`,
    );
    return rows.map(toApp);
  }

  async count(tx: MarketplaceTx = this.sql): Promise<number> {
    const rows = await tx.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM marketplace.apps',
    );
    return rows[0]?.n ?? 0;
  }
}
