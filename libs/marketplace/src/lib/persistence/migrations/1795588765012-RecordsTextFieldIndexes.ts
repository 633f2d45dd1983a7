import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * B-tree indexes for the text fields the SDKs query and sort by most
 * (`textFieldsOf` in `data/collections.ts`): a producer's records, a
 * product's name, changes since a time. The expressions are written exactly
 * as the query compiler writes them (`textFieldSql`), so the planner matches
 * them; missing values sort first, as MongoDB sorts them ascending. A
 * listing without a sort comes in creation order (`created_at`, `id`), and
 * every sort ends with those: a fourth index serves them.
 *
 * The GIN index over whole documents keeps a much shorter pending list
 * (512 kB instead of 4 MB): every search scans that list in full, so on a
 * busy collection containment queries slowed with each insert until the
 * next vacuum and the planner turned to a sequential scan; without a list
 * at all, each insert would update the index key by key.
 */
export class RecordsTextFieldIndexes1795588765012 implements MigrationInterface {
  name = 'RecordsTextFieldIndexes1795588765012';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, expression] of INDEXES)
      await queryRunner.query(
        `CREATE INDEX "${name}" ON "marketplace"."records" ("app_key", "collection", (${expression}) NULLS FIRST)`,
      );
    await queryRunner.query(
      `CREATE INDEX "records_created_idx" ON "marketplace"."records" ("app_key", "collection", "created_at", "id")`,
    );
    await queryRunner.query(
      `ALTER INDEX "marketplace"."records_doc_idx" SET (gin_pending_list_limit = 512)`,
    );
    await queryRunner.query(
      `SELECT gin_clean_pending_list('"marketplace"."records_doc_idx"'::regclass)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER INDEX "marketplace"."records_doc_idx" RESET (gin_pending_list_limit)`,
    );
    await queryRunner.query(`DROP INDEX "marketplace"."records_created_idx"`);
    for (const [name] of INDEXES)
      await queryRunner.query(`DROP INDEX "marketplace"."${name}"`);
  }
}

const INDEXES: ReadonlyArray<readonly [string, string]> = [
  ['records_id_producer_idx', `(doc ->> 'id_producer') COLLATE "C"`],
  ['records_name_idx', `(doc ->> 'name') COLLATE "C"`],
  ['records_kmd_lmt_idx', `(doc -> '_kmd' ->> 'lmt') COLLATE "C"`],
];
