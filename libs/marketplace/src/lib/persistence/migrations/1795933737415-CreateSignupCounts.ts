import type { MigrationInterface, QueryRunner } from 'typeorm';

/** App-credential signups per app, client address and hour (their limit). */
export class CreateSignupCounts1795933737415 implements MigrationInterface {
  name = 'CreateSignupCounts1795933737415';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."signup_counts" ("app_key" text NOT NULL, "client" text NOT NULL, "window_start" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "signups" integer NOT NULL, CONSTRAINT "signup_counts_pkey" PRIMARY KEY ("app_key", "client", "window_start"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "marketplace"."signup_counts"`);
  }
}
