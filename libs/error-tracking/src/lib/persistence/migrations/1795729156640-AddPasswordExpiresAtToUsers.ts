import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddPasswordExpiresAtToUsers1795729156640 implements MigrationInterface {
  name = 'AddPasswordExpiresAtToUsers1795729156640';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."users" ADD "password_expires_at" TIMESTAMP(3) WITH TIME ZONE`,
    );
    // root's password may still be the one the first boot generated, which
    // nothing ever replaced: ask for a new one at its next sign-in.
    await queryRunner.query(
      `UPDATE "error_tracking"."users" SET "password_expires_at" = "created_at" WHERE "username" = 'root' AND "password_hash" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."users" DROP COLUMN "password_expires_at"`,
    );
  }
}
