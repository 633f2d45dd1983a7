import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Several unique fields per collection: the values of every unique field
 * but the first (which stays `records.unique_name`). Collections so far
 * had at most one, so there is nothing to copy.
 */
export class AddRecordUniqueValues1795800000200 implements MigrationInterface {
  name = 'AddRecordUniqueValues1795800000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."record_unique_values" ("app_key" text NOT NULL, "collection" text NOT NULL, "record_id" text NOT NULL, "field" text NOT NULL, "value" text, CONSTRAINT "record_unique_values_pkey" PRIMARY KEY ("app_key", "collection", "record_id", "field"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "record_unique_values_value_key" ON "marketplace"."record_unique_values" ("app_key", "collection", "field", "value") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX "marketplace"."record_unique_values_value_key"`,
    );
    await queryRunner.query(`DROP TABLE "marketplace"."record_unique_values"`);
  }
}
