import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The last account mail of a kind per recipient (the per-minute limit). */
export class CreateAccountMailQuiet1795800000100 implements MigrationInterface {
  name = 'CreateAccountMailQuiet1795800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."account_mail_quiet" ("app_key" text NOT NULL, "kind" text NOT NULL, "recipient" text NOT NULL, "sent_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "account_mail_quiet_pkey" PRIMARY KEY ("app_key", "kind", "recipient"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "marketplace"."account_mail_quiet"`);
  }
}
