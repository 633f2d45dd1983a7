import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateMarketplace1795331816132 implements MigrationInterface {
  name = 'CreateMarketplace1795331816132';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."apps" ("app_key" text NOT NULL, "name" text NOT NULL, "environment_name" text NOT NULL DEFAULT 'Development', "app_secret_digest" text NOT NULL, "master_secret_digest" text NOT NULL, "app_credential_access" text NOT NULL DEFAULT 'read-create', "signing_key" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "apps_pkey" PRIMARY KEY ("app_key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."file_chunks" ("app_key" text NOT NULL, "file_id" text NOT NULL, "offset" bigint NOT NULL, "data" bytea NOT NULL, CONSTRAINT "file_chunks_pkey" PRIMARY KEY ("app_key", "file_id", "offset"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."files" ("app_key" text NOT NULL, "id" text NOT NULL, "doc" jsonb NOT NULL, "creator" text NOT NULL, "size" bigint NOT NULL, "stored_bytes" bigint NOT NULL DEFAULT '0', "generation" integer NOT NULL DEFAULT '1', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "files_pkey" PRIMARY KEY ("app_key", "id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."login_attempts" ("app_key" text NOT NULL, "username" text NOT NULL, "failures" integer NOT NULL, "last_failure_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "login_attempts_pkey" PRIMARY KEY ("app_key", "username"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."record_tombstones" ("app_key" text NOT NULL, "collection" text NOT NULL, "id" text NOT NULL, "deleted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "record_tombstones_pkey" PRIMARY KEY ("app_key", "collection", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "record_tombstones_deleted_at_idx" ON "marketplace"."record_tombstones" ("app_key", "collection", "deleted_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."records" ("app_key" text NOT NULL, "collection" text NOT NULL, "id" text NOT NULL, "doc" jsonb NOT NULL, "creator" text NOT NULL, "unique_name" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "records_pkey" PRIMARY KEY ("app_key", "collection", "id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "records_unique_name_key" ON "marketplace"."records" ("app_key", "collection", "unique_name") `,
    );
    await queryRunner.query(
      `CREATE INDEX "records_lmt_idx" ON "marketplace"."records" ("app_key", "collection", "updated_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."user_tokens" ("digest" text NOT NULL, "app_key" text NOT NULL, "user_id" text NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "revoked" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "user_tokens_pkey" PRIMARY KEY ("digest"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "user_tokens_app_key_user_id_idx" ON "marketplace"."user_tokens" ("app_key", "user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."users" ("app_key" text NOT NULL, "id" text NOT NULL, "username" text NOT NULL, "doc" jsonb NOT NULL, "password_hash" text NOT NULL, "disabled" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "users_pkey" PRIMARY KEY ("app_key", "id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "users_app_key_username_key" ON "marketplace"."users" ("app_key", "username") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX "marketplace"."users_app_key_username_key"`,
    );
    await queryRunner.query(`DROP TABLE "marketplace"."users"`);
    await queryRunner.query(
      `DROP INDEX "marketplace"."user_tokens_app_key_user_id_idx"`,
    );
    await queryRunner.query(`DROP TABLE "marketplace"."user_tokens"`);
    await queryRunner.query(`DROP INDEX "marketplace"."records_lmt_idx"`);
    await queryRunner.query(
      `DROP INDEX "marketplace"."records_unique_name_key"`,
    );
    await queryRunner.query(`DROP TABLE "marketplace"."records"`);
    await queryRunner.query(
      `DROP INDEX "marketplace"."record_tombstones_deleted_at_idx"`,
    );
    await queryRunner.query(`DROP TABLE "marketplace"."record_tombstones"`);
    await queryRunner.query(`DROP TABLE "marketplace"."login_attempts"`);
    await queryRunner.query(`DROP TABLE "marketplace"."files"`);
    await queryRunner.query(`DROP TABLE "marketplace"."file_chunks"`);
    await queryRunner.query(`DROP TABLE "marketplace"."apps"`);
  }
}
