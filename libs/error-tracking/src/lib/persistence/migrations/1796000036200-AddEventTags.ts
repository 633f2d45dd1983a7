import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each event's tags (a column of the partitioned `events`: no default, so
 * adding it rewrites nothing) and their per-error counts, found by error
 * (the key) or by value (the index).
 */
export class AddEventTags1796000036200 implements MigrationInterface {
  name = 'AddEventTags1796000036200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."events" ADD "tags" jsonb`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."error_tags" ("error_id" bigint NOT NULL, "key" text NOT NULL, "value" text NOT NULL, "count" bigint NOT NULL, "last_seen" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "error_tags_pkey" PRIMARY KEY ("error_id", "key", "value"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "error_tags_key_value_idx" ON "error_tracking"."error_tags" ("key", "value", "error_id") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "error_tracking"."error_tags"`);
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."events" DROP COLUMN "tags"`,
    );
  }
}
