import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every login now counts its attempt before the password is checked and a
 * success forgets it: two writes per login, whose commits would each wait
 * for a WAL flush. Throttle counters need no crash safety (a crash forgets
 * them, as a lock's end does), so the table skips the WAL.
 */
export class UnloggedLoginAttempts1795650000000 implements MigrationInterface {
  name = 'UnloggedLoginAttempts1795650000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "marketplace"."login_attempts" SET UNLOGGED`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "marketplace"."login_attempts" SET LOGGED`,
    );
  }
}
