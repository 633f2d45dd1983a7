import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWebSessions1795331783744 implements MigrationInterface {
  name = 'CreateWebSessions1795331783744';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."sign_in_throttles" ("username" text NOT NULL, "failures" integer NOT NULL, "last_failure_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "blocked_until" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("username"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."web_sessions" ("id_digest" text NOT NULL, "user_id" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "web_sessions_pkey" PRIMARY KEY ("id_digest"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "web_sessions_user_id_idx" ON "error_tracking"."web_sessions" ("user_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "web_sessions_expires_at_idx" ON "error_tracking"."web_sessions" ("expires_at") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX "error_tracking"."web_sessions_expires_at_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."web_sessions_user_id_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."web_sessions"`);
    await queryRunner.query(`DROP TABLE "error_tracking"."sign_in_throttles"`);
  }
}
