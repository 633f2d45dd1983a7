import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Serves the containment (`doc @> ...`) the query compiler writes for equalities. */
export class RecordsDocIndex1795335000000 implements MigrationInterface {
  name = 'RecordsDocIndex1795335000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "records_doc_idx" ON "marketplace"."records" USING gin ("doc" jsonb_path_ops)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "marketplace"."records_doc_idx"`);
  }
}
