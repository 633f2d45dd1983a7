import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hourly counts per environment, so the charts can follow an environment.
 * Hours counted before get `''`: in the totals, in no one environment's
 * chart (adding the column with a default rewrites nothing; the charts
 * read at most 30 days back, so those rows age out of them).
 */
export class AddEnvironmentToErrorHourlyCounts1796100000000 implements MigrationInterface {
  name = 'AddEnvironmentToErrorHourlyCounts1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."error_hourly_counts" ADD "environment" text NOT NULL DEFAULT ''`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."error_hourly_counts" ALTER COLUMN "environment" DROP DEFAULT`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."error_hourly_counts" DROP CONSTRAINT "error_hourly_counts_pkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."error_hourly_counts" ADD CONSTRAINT "error_hourly_counts_pkey" PRIMARY KEY ("error_id", "hour", "environment")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Environments folded back into one row per hour.
    await queryRunner.query(
      `CREATE TEMP TABLE "hourly_totals" AS SELECT "error_id", "hour", sum("count")::int AS "count" FROM "error_tracking"."error_hourly_counts" GROUP BY 1, 2`,
    );
    await queryRunner.query(
      `DELETE FROM "error_tracking"."error_hourly_counts"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."error_hourly_counts" DROP CONSTRAINT "error_hourly_counts_pkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."error_hourly_counts" DROP COLUMN "environment"`,
    );
    await queryRunner.query(
      `INSERT INTO "error_tracking"."error_hourly_counts" ("error_id", "hour", "count") SELECT "error_id", "hour", "count" FROM "hourly_totals"`,
    );
    await queryRunner.query(`DROP TABLE "hourly_totals"`);
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."error_hourly_counts" ADD CONSTRAINT "error_hourly_counts_pkey" PRIMARY KEY ("error_id", "hour")`,
    );
  }
}
