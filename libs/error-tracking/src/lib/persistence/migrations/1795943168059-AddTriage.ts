import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddTriage1795943168059 implements MigrationInterface {
  name = 'AddTriage1795943168059';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."error_merges" ("project_id" integer NOT NULL, "fingerprint" uuid NOT NULL, "error_id" bigint NOT NULL, "merged_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "error_merges_pkey" PRIMARY KEY ("project_id", "fingerprint"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "error_merges_error_id_idx" ON "error_tracking"."error_merges" ("error_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."errors" ADD "ignored_until" TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."errors" ADD "ignored_until_count" bigint`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."errors" ADD "ignored_until_user_count" integer`,
    );
    await queryRunner.query(
      `CREATE INDEX "errors_ignored_until_idx" ON "error_tracking"."errors" ("project_id", "ignored_until") WHERE ignored_until IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX "error_tracking"."errors_ignored_until_idx"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."errors" DROP COLUMN "ignored_until_user_count"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."errors" DROP COLUMN "ignored_until_count"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."errors" DROP COLUMN "ignored_until"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."error_merges_error_id_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."error_merges"`);
  }
}
