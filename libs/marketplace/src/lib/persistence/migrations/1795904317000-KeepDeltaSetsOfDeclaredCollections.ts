import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delta sets become off unless a collection's settings turn them on, as in
 * Kinvey. Every collection declared before was served with them on, so
 * those whose settings say nothing about it keep them, written out.
 */
export class KeepDeltaSetsOfDeclaredCollections1795904317000 implements MigrationInterface {
  name = 'KeepDeltaSetsOfDeclaredCollections1795904317000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "marketplace"."collections" SET settings = settings || '{"deltaSet": true}'::jsonb, updated_at = now()
        WHERE NOT settings ? 'deltaSet'`,
    );
  }

  async down(): Promise<void> {
    // Nothing to undo: `deltaSet: true` means under the old default what it means now.
  }
}
