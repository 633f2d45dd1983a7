import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate-limit windows per Sentry data category: sessions, client reports
 * and skipped items count against their own limits, not only events.
 * Windows last a minute: those in flight count as `error`, as before.
 */
export class AddRateLimitCategories1795727981276 implements MigrationInterface {
  name = 'AddRateLimitCategories1795727981276';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."rate_limit_windows" RENAME COLUMN "events" TO "quantity"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."rate_limit_windows" ADD "category" text NOT NULL DEFAULT 'error'`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."rate_limit_windows" ALTER COLUMN "category" DROP DEFAULT`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."rate_limit_windows" DROP CONSTRAINT "rate_limit_windows_pkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."rate_limit_windows" ADD CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("key_id", "window_start", "category")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM "error_tracking"."rate_limit_windows" WHERE "category" <> 'error'`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."rate_limit_windows" DROP CONSTRAINT "rate_limit_windows_pkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."rate_limit_windows" DROP COLUMN "category"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."rate_limit_windows" ADD CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("key_id", "window_start")`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."rate_limit_windows" RENAME COLUMN "quantity" TO "events"`,
    );
  }
}
