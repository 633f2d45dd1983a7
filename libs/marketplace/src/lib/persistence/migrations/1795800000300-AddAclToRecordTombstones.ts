import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A tombstone keeps its record's `_acl`, so a delta set lists a deletion
 * only to those who could read the record. Tombstones written before
 * have none: they are listed as a record without `_acl` would be read.
 */
export class AddAclToRecordTombstones1795800000300 implements MigrationInterface {
  name = 'AddAclToRecordTombstones1795800000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "marketplace"."record_tombstones" ADD "acl" jsonb`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "marketplace"."record_tombstones" DROP COLUMN "acl"`,
    );
  }
}
