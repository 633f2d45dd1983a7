import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Sql } from '@quitanda/database';
import type { SqlExecutor } from '@quitanda/database';
import { DataSource } from 'typeorm';

import { MARKETPLACE_DATA_SOURCE } from '../marketplace.constants';
import type { AppCredentialAccess, AppRecord } from './app.types';

interface AppRow {
  app_key: string;
  name: string;
  environment_name: string;
  app_secret_digest: string;
  master_secret_digest: string;
  app_credential_access: AppCredentialAccess;
  signing_key: string;
  created_at: Date;
}

const COLUMNS =
  'app_key, name, environment_name, app_secret_digest, master_secret_digest, app_credential_access, signing_key, created_at';

function toApp(row: AppRow): AppRecord {
  return {
    appKey: row.app_key,
    name: row.name,
    environmentName: row.environment_name,
    appSecretDigest: row.app_secret_digest,
    masterSecretDigest: row.master_secret_digest,
    appCredentialAccess: row.app_credential_access,
    signingKey: row.signing_key,
    createdAt: row.created_at,
  };
}

/** Apps (tenants) and their hashed secrets. */
@Injectable()
export class AppsRepository {
  readonly sql: Sql;

  constructor(
    @InjectDataSource(MARKETPLACE_DATA_SOURCE) dataSource: DataSource,
  ) {
    this.sql = new Sql(dataSource);
  }

  async insert(app: AppRecord, sql: SqlExecutor = this.sql): Promise<boolean> {
    const rows = await sql.rows(
      `INSERT INTO marketplace.apps (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (app_key) DO NOTHING RETURNING app_key`,
      [
        app.appKey,
        app.name,
        app.environmentName,
        app.appSecretDigest,
        app.masterSecretDigest,
        app.appCredentialAccess,
        app.signingKey,
        app.createdAt,
      ],
    );
    return rows.length === 1;
  }

  /** Sets the secrets (and the name, when given) of an existing app. */
  async updateSecrets(
    appKey: string,
    appSecretDigest: string,
    masterSecretDigest: string,
    name: string | undefined,
    sql: SqlExecutor = this.sql,
  ): Promise<void> {
    await sql.rows(
      `UPDATE marketplace.apps SET app_secret_digest = $2, master_secret_digest = $3,
              name = COALESCE($4, name)
        WHERE app_key = $1`,
      [appKey, appSecretDigest, masterSecretDigest, name ?? null],
    );
  }

  async find(
    appKey: string,
    sql: SqlExecutor = this.sql,
  ): Promise<AppRecord | undefined> {
    const rows = await sql.rows<AppRow>(
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

  async count(sql: SqlExecutor = this.sql): Promise<number> {
    const rows = await sql.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM marketplace.apps',
    );
    return rows[0]?.n ?? 0;
  }
}
