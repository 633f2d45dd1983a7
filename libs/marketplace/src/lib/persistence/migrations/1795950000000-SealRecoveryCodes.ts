import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recovery codes kept sealed beside their digests, in the order they were
 * made, so that the user can list them again as Kinvey lets it. Codes made
 * before stay digests only and are not listed.
 */
export class SealRecoveryCodes1795950000000 implements MigrationInterface {
  name = 'SealRecoveryCodes1795950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "marketplace"."mfa_recovery_codes" ADD "sealed_code" text`,
    );
    await queryRunner.query(
      `ALTER TABLE "marketplace"."mfa_recovery_codes" ADD "position" integer`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "marketplace"."mfa_recovery_codes" DROP COLUMN "position"`,
    );
    await queryRunner.query(
      `ALTER TABLE "marketplace"."mfa_recovery_codes" DROP COLUMN "sealed_code"`,
    );
  }
}
