import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each tag value of an error was first seen, which Sentry's tag
 * values carry. Rows counted before have none (adding a nullable column
 * rewrites nothing); readers fall back to the error's own first sighting,
 * the earliest the value can have been seen.
 */
export class AddFirstSeenToErrorTags1796200000000 implements MigrationInterface {
  name = 'AddFirstSeenToErrorTags1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."error_tags" ADD "first_seen" TIMESTAMP(3) WITH TIME ZONE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."error_tags" DROP COLUMN "first_seen"`,
    );
  }
}
