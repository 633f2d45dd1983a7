import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The management API (kinvey-cli): operator accounts and sessions, Kinvey
 * applications and their environments (marketplace apps, secrets sealed).
 */
export class CreateOperatorsAndManagedApps1795943193075 implements MigrationInterface {
  name = 'CreateOperatorsAndManagedApps1795943193075';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."managed_apps" ("id" text NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "managed_apps_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."managed_environments" ("app_key" text NOT NULL, "managed_app_id" text NOT NULL, "sealed_app_secret" text NOT NULL, "sealed_master_secret" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "managed_environments_pkey" PRIMARY KEY ("app_key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "managed_environments_managed_app_id_idx" ON "marketplace"."managed_environments" ("managed_app_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."operator_sessions" ("digest" text NOT NULL, "operator_id" text NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "operator_sessions_pkey" PRIMARY KEY ("digest"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "operator_sessions_operator_id_idx" ON "marketplace"."operator_sessions" ("operator_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."operators" ("id" text NOT NULL, "email" text NOT NULL, "password_hash" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "operators_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "operators_email_key" ON "marketplace"."operators" ("email") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "marketplace"."operators_email_key"`);
    await queryRunner.query(`DROP TABLE "marketplace"."operators"`);
    await queryRunner.query(
      `DROP INDEX "marketplace"."operator_sessions_operator_id_idx"`,
    );
    await queryRunner.query(`DROP TABLE "marketplace"."operator_sessions"`);
    await queryRunner.query(
      `DROP INDEX "marketplace"."managed_environments_managed_app_id_idx"`,
    );
    await queryRunner.query(`DROP TABLE "marketplace"."managed_environments"`);
    await queryRunner.query(`DROP TABLE "marketplace"."managed_apps"`);
  }
}
