import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSourceMapArtifacts1795588722324 implements MigrationInterface {
  name = 'CreateSourceMapArtifacts1795588722324';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."artifact_bundles" ("id" SERIAL NOT NULL, "project_id" integer NOT NULL, "checksum" text NOT NULL, "bundle_id" uuid, "release" text, "dist" text, "size" integer NOT NULL, "file_count" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "artifact_bundles_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "artifact_bundles_created_at_idx" ON "error_tracking"."artifact_bundles" ("created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "artifact_bundles_project_id_checksum_key" ON "error_tracking"."artifact_bundles" ("project_id", "checksum") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."artifact_chunks" ("user_id" integer NOT NULL, "checksum" text NOT NULL, "data" bytea NOT NULL, "size" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "artifact_chunks_pkey" PRIMARY KEY ("user_id", "checksum"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "artifact_chunks_created_at_idx" ON "error_tracking"."artifact_chunks" ("created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."artifact_files" ("id" SERIAL NOT NULL, "bundle_id" integer NOT NULL, "project_id" integer NOT NULL, "type" text NOT NULL, "url" text NOT NULL, "debug_id" uuid, "release" text, "dist" text, "sourcemap" text, "content" bytea NOT NULL, CONSTRAINT "artifact_files_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "artifact_files_release_url_idx" ON "error_tracking"."artifact_files" ("project_id", "release", "url") `,
    );
    await queryRunner.query(
      `CREATE INDEX "artifact_files_debug_id_idx" ON "error_tracking"."artifact_files" ("project_id", "debug_id", "type") `,
    );
    await queryRunner.query(
      `CREATE INDEX "artifact_files_bundle_id_idx" ON "error_tracking"."artifact_files" ("bundle_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."releases" ("id" SERIAL NOT NULL, "project_id" integer NOT NULL, "version" text NOT NULL, "ref" text, "url" text, "date_created" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "date_started" TIMESTAMP(3) WITH TIME ZONE, "date_released" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "releases_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "releases_project_id_version_key" ON "error_tracking"."releases" ("project_id", "version") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX "error_tracking"."releases_project_id_version_key"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."releases"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."artifact_files_bundle_id_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."artifact_files_debug_id_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."artifact_files_release_url_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."artifact_files"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."artifact_chunks_created_at_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."artifact_chunks"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."artifact_bundles_project_id_checksum_key"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."artifact_bundles_created_at_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."artifact_bundles"`);
  }
}
