import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Kinvey's multi-factor authentication: TOTP authenticators (secret sealed,
 * last accepted time step so a code is used once), hashed recovery codes,
 * the short-lived sessions between password and second factor, remembered
 * devices, and failed second-factor attempts per user (throttled like
 * logins, so unlogged like `login_attempts`).
 */
export class CreateMfa1795900000000 implements MigrationInterface {
  name = 'CreateMfa1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."mfa_authenticators" ("app_key" text NOT NULL, "user_id" text NOT NULL, "id" text NOT NULL, "name" text NOT NULL, "type" text NOT NULL, "sealed_secret" text NOT NULL, "verified" boolean NOT NULL DEFAULT false, "last_step" bigint, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "mfa_authenticators_pkey" PRIMARY KEY ("app_key", "user_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."mfa_recovery_codes" ("app_key" text NOT NULL, "user_id" text NOT NULL, "digest" text NOT NULL, CONSTRAINT "mfa_recovery_codes_pkey" PRIMARY KEY ("app_key", "user_id", "digest"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."mfa_sessions" ("digest" text NOT NULL, "app_key" text NOT NULL, "user_id" text NOT NULL, "authenticator_id" text, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "mfa_sessions_pkey" PRIMARY KEY ("digest"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."mfa_devices" ("digest" text NOT NULL, "app_key" text NOT NULL, "user_id" text NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "mfa_devices_pkey" PRIMARY KEY ("digest"))`,
    );
    await queryRunner.query(
      `CREATE UNLOGGED TABLE "marketplace"."mfa_attempts" ("app_key" text NOT NULL, "username" text NOT NULL, "failures" integer NOT NULL, "last_failure_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "mfa_attempts_pkey" PRIMARY KEY ("app_key", "username"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "marketplace"."mfa_attempts"`);
    await queryRunner.query(`DROP TABLE "marketplace"."mfa_devices"`);
    await queryRunner.query(`DROP TABLE "marketplace"."mfa_sessions"`);
    await queryRunner.query(`DROP TABLE "marketplace"."mfa_recovery_codes"`);
    await queryRunner.query(`DROP TABLE "marketplace"."mfa_authenticators"`);
  }
}
