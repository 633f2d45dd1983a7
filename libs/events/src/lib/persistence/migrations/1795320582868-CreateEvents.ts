import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateEvents1795320582868 implements MigrationInterface {
  name = 'CreateEvents1795320582868';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "events"."events" ("id" uuid NOT NULL, "title" text NOT NULL, "description" text NOT NULL DEFAULT '', "version" integer NOT NULL DEFAULT '1', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "events_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "events_created_at_id_idx" ON "events"."events" ("created_at", "id") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "events"."events_created_at_id_idx"`);
    await queryRunner.query(`DROP TABLE "events"."events"`);
  }
}
