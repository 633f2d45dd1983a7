import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Password-reset and e-mail-verification tokens (hashed, single-use). */
export class CreateAccountTokens1795800000001 implements MigrationInterface {
  name = 'CreateAccountTokens1795800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."account_tokens" ("digest" text NOT NULL, "app_key" text NOT NULL, "user_id" text NOT NULL, "kind" text NOT NULL, "email" text NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "account_tokens_pkey" PRIMARY KEY ("digest"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "marketplace"."account_tokens"`);
  }
}
