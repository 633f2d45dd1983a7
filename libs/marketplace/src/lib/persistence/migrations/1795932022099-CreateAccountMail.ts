import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The outbox of account mail, with what its limits per address and app count. */
export class CreateAccountMail1795932022099 implements MigrationInterface {
  name = 'CreateAccountMail1795932022099';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."account_mail" ("id" BIGSERIAL NOT NULL, "app_key" text NOT NULL, "kind" text NOT NULL, "recipient" text NOT NULL, "mailbox" text NOT NULL, "subject" text NOT NULL, "body" text, "status" text NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_error" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "account_mail_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "account_mail_app_idx" ON "marketplace"."account_mail" ("app_key", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "account_mail_mailbox_idx" ON "marketplace"."account_mail" ("app_key", "mailbox", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "account_mail_due_idx" ON "marketplace"."account_mail" ("next_attempt_at") WHERE status = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "marketplace"."account_mail_due_idx"`);
    await queryRunner.query(
      `DROP INDEX "marketplace"."account_mail_mailbox_idx"`,
    );
    await queryRunner.query(`DROP INDEX "marketplace"."account_mail_app_idx"`);
    await queryRunner.query(`DROP TABLE "marketplace"."account_mail"`);
  }
}
